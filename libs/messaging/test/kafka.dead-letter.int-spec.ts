import { randomBytes } from 'node:crypto';
import { createEnvelope, deadLetterTopic, ProbeRecorded, TOPICS } from '@genasset/contracts';
import { PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, testServices, TopicReader, waitFor, type TestDatabase } from '@genasset/testing';
import { HEADERS } from '../src';
import { startProbeApp, type ProbeApp } from './support/probe-app';
import { balances, migrateProbe } from './support/probe-schema';
import { directProducer } from './support/direct-producer';

jest.setTimeout(180_000);

describe('Kafka consumer: malformed messages', () => {
  const prefix = `dl${randomBytes(3).toString('hex')}`;
  let db: TestDatabase;
  let connection: PostgresConnection;
  let probe: ProbeApp;
  let dlt: TopicReader;

  beforeAll(async () => {
    db = await createTestDatabase('msg_dead_letter');
    connection = new PostgresConnection(db.url);
    await migrateProbe(connection);
    dlt = await new TopicReader(deadLetterTopic(TOPICS.platformProbe), { from: 'beginning' }).start();
    probe = await startProbeApp({
      connection,
      produce: false,
      consume: { consumer: `probe-sink-${prefix}`, prefix },
      messaging: { transport: 'kafka', brokers: testServices().kafkaBrokers, clientId: 'dead-letter-test' },
      logger: false,
    });
  });

  afterAll(async () => {
    await probe?.close();
    await dlt?.stop();
    await db?.drop();
  });

  it('dead-letters garbage and invalid payloads with the reason, and goes on with the same partition', async () => {
    const subject = `${prefix}-s0`;
    const valid = (sequence: number) => createEnvelope(ProbeRecorded, { subject, sequence, amount: 2 }, { producer: 'test' });
    const invalid = { ...valid(1), data: { subject, sequence: -1, amount: 2 } };
    const producer = await directProducer(testServices().kafkaBrokers);
    // One key: one partition. The bad messages sit between two good ones.
    await producer.send({
      topic: TOPICS.platformProbe,
      acks: -1,
      messages: [JSON.stringify(valid(0)), '{not json', JSON.stringify(invalid), JSON.stringify(valid(1))].map((value) => ({ key: subject, value })),
    });
    await producer.disconnect();

    await waitFor(async () => (await balances(connection, prefix)).get(subject)?.events === 2, { timeoutMs: 60_000, what: 'both valid events' });
    expect((await balances(connection, prefix)).get(subject)).toMatchObject({ total: 4, last_sequence: 1, out_of_order: 0 });

    const letters = await dlt.waitUntil(
      // Other test files' consumers on the shared topic dead-letter these messages too, each under its own name.
      (m) => m.key === subject && m.headers[HEADERS.deadLetterConsumer] === `probe-sink-${prefix}`,
      { count: 2, what: 'dead letter' },
    );
    expect(letters).toHaveLength(2);
    const [garbage, badPayload] = [...letters].sort((a, b) => Number(a.headers[HEADERS.originalOffset]) - Number(b.headers[HEADERS.originalOffset]));
    expect(garbage.value).toBe('{not json');
    expect(garbage.headers[HEADERS.deadLetterReason]).toContain('not JSON');
    expect(badPayload.headers[HEADERS.deadLetterReason]).toContain('data.sequence');
    for (const letter of [garbage, badPayload]) {
      expect(letter.headers[HEADERS.originalTopic]).toBe(TOPICS.platformProbe);
      expect(letter.headers[HEADERS.originalPartition]).toMatch(/^\d+$/);
      expect(letter.headers[HEADERS.deadLetterConsumer]).toBe(`probe-sink-${prefix}`);
    }
    expect(Number(badPayload.headers[HEADERS.originalOffset])).toBe(Number(garbage.headers[HEADERS.originalOffset]) + 1);
    // Events carry no headers: the letter names the event when its JSON does (replay filters on it).
    expect(badPayload.headers).toMatchObject({ [HEADERS.eventId]: invalid.id, [HEADERS.eventType]: invalid.type });
    expect(garbage.headers[HEADERS.eventId]).toBeUndefined();
  });
});
