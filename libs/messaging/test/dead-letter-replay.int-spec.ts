import { randomBytes } from 'node:crypto';
import { createEnvelope, deadLetterTopic, ProbeRecorded, TOPICS } from '@genasset/contracts';
import { metricsRegistry } from '@genasset/observability';
import { PostgresConnection } from '@genasset/persistence';
import {
  createTestDatabase,
  spawnTsProcess,
  testServices,
  TopicReader,
  waitFor,
  type TestDatabase,
} from '@genasset/testing';
import { HEADERS, replayDeadLetters } from '../src';
import { directProducer } from './support/direct-producer';
import { startProbeApp, type ProbeApp } from './support/probe-app';
import { balances, migrateProbe } from './support/probe-schema';

jest.setTimeout(240_000);

/** Runs the real CLI (`genasset dlt replay …`) as its own process and returns its JSON output. */
async function cli(
  args: string[],
): Promise<{ matched: number; replayed: number; letters: { eventId?: string; duplicate?: boolean }[] }> {
  const proc = spawnTsProcess(
    'apps/cli/src/main.ts',
    { KAFKA_BROKERS: testServices().kafkaBrokers.join(',') },
    ['dlt', 'replay', ...args, '--json'],
  );
  const code = await new Promise<number | null>((resolve) => proc.child.on('exit', resolve));
  // The CLI's stderr rides along, so a failed run says why (a busy CI machine once gave exit 1).
  expect({ code, stderr: code === 0 ? '' : proc.errors() }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(proc.output());
}

describe('dead-letter replay', () => {
  const prefix = `rp${randomBytes(3).toString('hex')}`;
  const consumer = `probe-replay-${prefix}`;
  /** Subjects whose handler fails (a downstream outage), until the test "fixes" it. */
  const broken = new Set<string>();
  let db: TestDatabase;
  let connection: PostgresConnection;
  let probe: ProbeApp;
  let original: TopicReader;

  beforeAll(async () => {
    db = await createTestDatabase('msg_dlt_replay');
    connection = new PostgresConnection(db.url);
    await migrateProbe(connection);
    original = await new TopicReader(TOPICS.platformProbe, { from: 'beginning' }).start();
    probe = await startProbeApp({
      connection,
      produce: false,
      consume: {
        consumer,
        prefix,
        afterApply: (envelope) => {
          if (broken.has(envelope.data.subject)) throw new Error('downstream outage');
        },
      },
      messaging: {
        transport: 'kafka',
        brokers: testServices().kafkaBrokers,
        clientId: 'dlt-replay-test',
        retry: { attempts: 2, initialDelayMs: 50, maxDelayMs: 50 },
      },
      logger: false,
    });
  });

  afterAll(async () => {
    await probe?.close();
    await original?.stop();
    await db?.drop();
  });

  it('lists with --dry-run, then republishes the chosen letters to the original topic, dead-letter headers stripped', async () => {
    const since = new Date(Date.now() - 1_000);
    const [a, b] = ['a', 'b'].map((s) =>
      createEnvelope(
        ProbeRecorded,
        { subject: `${prefix}-${s}`, sequence: 0, amount: 5 },
        { producer: 'test' },
      ),
    );
    broken.add(a.data.subject).add(b.data.subject);
    const producer = await directProducer(testServices().kafkaBrokers);
    await producer.send({
      topic: TOPICS.platformProbe,
      acks: -1,
      messages: [a, b].map((e) => ({
        key: e.data.subject,
        value: JSON.stringify(e),
        // As the relay publishes (no event headers), plus one of another producer's.
        headers: { 'x-custom': 'kept' },
      })),
    });
    await producer.disconnect();

    // Both fail twice and are dead-lettered: counted by reason.
    await waitFor(
      async () =>
        (await metricsRegistry.getSingleMetricAsString('messaging_dead_letters_total')).includes(
          `consumer="${consumer}",reason="handler_failed"} 2`,
        ),
      { timeoutMs: 60_000, what: 'two dead letters counted' },
    );
    broken.clear(); // the outage is over

    // Other test files share the probe topic, and this consumer dead-letters their bad messages too:
    // the assertions look at this test's two events (a filter by id is what an operator would add).
    const ours = (letters: { eventId?: string }[]) =>
      letters.map((l) => l.eventId).filter((id) => id === a.id || id === b.id);
    // The count may include letters of other files' failing events on the shared topic, and a
    // new reader's view of the end offsets may lag behind on the test broker: the listing is asked
    // again until it shows both (the dry run changes nothing).
    const mine = [
      '--topic',
      TOPICS.platformProbe,
      '--consumer',
      consumer,
      '--since',
      since.toISOString(),
      '--type',
      ProbeRecorded.type,
    ];
    const dry = await waitFor(
      async () => {
        const listed = await cli([...mine, '--dry-run']);
        return ours(listed.letters).length >= 2 ? listed : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'both dead letters listed' },
    );
    expect(dry.replayed).toBe(0);
    expect(ours(dry.letters).sort()).toEqual([a.id, b.id].sort());

    // Only `a`, through the library.
    const one = await replayDeadLetters({
      brokers: testServices().kafkaBrokers,
      topics: [TOPICS.platformProbe],
      eventIds: [a.id],
    });
    expect(one.replayed).toBe(1);
    await waitFor(async () => (await balances(connection, prefix)).get(a.data.subject)?.events === 1, {
      timeoutMs: 60_000,
      what: 'a applied',
    });
    expect((await balances(connection, prefix)).has(b.data.subject)).toBe(false);

    // Both of this consumer's letters since the start, through the CLI: `a` again (the inbox skips it) and `b`.
    const all = await cli([...mine, '--event-id', a.id, b.id]);
    expect(all).toMatchObject({ matched: 2, replayed: 2 });
    await waitFor(async () => (await balances(connection, prefix)).get(b.data.subject)?.events === 1, {
      timeoutMs: 60_000,
      what: 'b applied',
    });
    expect((await balances(connection, prefix)).get(a.data.subject)).toMatchObject({ events: 1, total: 5 });

    // The republished copies carry the original headers and none of the dead-letter ones. The
    // reader is a consumer of its own: it may get the replayed copy after the app applied it.
    const copies = await original.waitUntil((m) => m.key === b.data.subject, {
      count: 2,
      what: 'b and its replayed copy',
    });
    expect(copies).toHaveLength(2); // the original and its replay
    const replayed = copies[1];
    expect(replayed.value).toBe(JSON.stringify(b));
    expect(replayed.headers).toMatchObject({ [HEADERS.eventId]: b.id, 'x-custom': 'kept' });
    for (const name of [
      HEADERS.deadLetterReason,
      HEADERS.deadLetterConsumer,
      HEADERS.originalTopic,
      HEADERS.originalOffset,
    ]) {
      expect(replayed.headers[name]).toBeUndefined();
    }
    expect(deadLetterTopic(TOPICS.platformProbe)).toBe('platform.probe.v1.dlt');
  });
});
