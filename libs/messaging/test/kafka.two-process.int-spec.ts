import { randomBytes } from 'node:crypto';
import { createEnvelope, ProbeRecorded, TOPICS } from '@genasset/contracts';
import { PostgresConnection } from '@genasset/persistence';
import { brokerControl, createTestDatabase, spawnTsProcess, testServices, waitFor, type SpawnedProcess, type TestDatabase } from '@genasset/testing';
import { appliedCount, balances, migrateProbe, SINK_SCHEMA, SOURCE_SCHEMA } from './support/probe-schema';
import { amountOf, expectedTotal, subjectName } from './support/probe-writer';
import { directProducer } from './support/direct-producer';

// Real processes and a real broker on a 2-core machine: give them time.
jest.setTimeout(180_000);

const CONSUMER = 'libs/messaging/test/fixtures/probe-consumer.main.ts';
const PRODUCER = 'libs/messaging/test/fixtures/probe-producer.main.ts';

/**
 * Producer and consumer as separate OS processes over PostgreSQL and the
 * Kafka-protocol broker, as in distributed mode.
 */
describe('outbox → Kafka → inbox across processes', () => {
  const prefix = `tp${randomBytes(3).toString('hex')}`;
  const consumerName = `probe-sink-${prefix}`;
  let db: TestDatabase;
  let connection: PostgresConnection;
  const running: SpawnedProcess[] = [];
  let env: NodeJS.ProcessEnv;

  const spawn = (entry: string, extra: NodeJS.ProcessEnv = {}) => {
    const child = spawnTsProcess(entry, { ...env, ...extra });
    running.push(child);
    return child;
  };

  beforeAll(async () => {
    db = await createTestDatabase('msg_two_process');
    connection = new PostgresConnection(db.url);
    await migrateProbe(connection);
    env = { DATABASE_URL: db.url, KAFKA_BROKERS: testServices().kafkaBrokers.join(','), PROBE_CONSUMER: consumerName, PROBE_PREFIX: prefix };
  });

  afterAll(async () => {
    if (brokerControl.available()) await brokerControl.up();
    await Promise.all(running.map((p) => p.kill('SIGTERM')));
    await connection?.close();
    await db?.drop();
  });

  it('applies every event exactly once despite a duplicate and a crash between DB commit and offset commit', async () => {
    const runPrefix = `${prefix}-a`;
    const crashing = spawn(CONSUMER, { KILL_AFTER_COMMIT_OF: '30' });
    await crashing.waitForLine(/^READY/, 90_000);
    const producer = spawn(PRODUCER, { PROBE_PREFIX: runPrefix, SUBJECTS: '4', PER_SUBJECT: '25', BATCH: '10' });
    await producer.waitForLine(/^WRITTEN 100/, 60_000);
    await crashing.waitForLine(/^KILLING/, 60_000);
    expect(await crashing.kill()).toBeNull(); // died by its own SIGKILL
    const appliedBeforeRestart = await appliedCount(connection, runPrefix);
    expect(appliedBeforeRestart).toBeGreaterThanOrEqual(30);

    const consumer = spawn(CONSUMER);
    await consumer.waitForLine(/^READY/, 90_000);
    await waitFor(async () => (await appliedCount(connection, runPrefix)) >= 100, { timeoutMs: 60_000, what: 'all 100 applied' });

    // A copy of an applied event (same id) straight onto the topic, then a new
    // event on the same key: once that one is applied, the copy was seen.
    const [applied] = await connection.query<{ event_id: string; sequence: number }>(
      `SELECT event_id, sequence FROM ${SINK_SCHEMA}.ledger WHERE subject = $1 AND sequence = 5`,
      [subjectName(runPrefix, 0)],
    );
    const subject = subjectName(runPrefix, 0);
    const copy = createEnvelope(ProbeRecorded, { subject, sequence: 5, amount: amountOf(5) }, { producer: 'probe-producer', id: applied.event_id });
    const after = createEnvelope(ProbeRecorded, { subject, sequence: 25, amount: amountOf(25) }, { producer: 'probe-producer' });
    const direct = await directProducer(testServices().kafkaBrokers);
    await direct.send({ topic: TOPICS.platformProbe, acks: -1, messages: [copy, after].map((e) => ({ key: e.key, value: JSON.stringify(e) })) });
    await direct.disconnect();
    await waitFor(async () => (await connection.query(`SELECT 1 FROM ${SINK_SCHEMA}.ledger WHERE event_id = $1`, [after.id])).length === 1, {
      timeoutMs: 30_000,
      what: 'event after the duplicate',
    });

    expect(await appliedCount(connection, runPrefix)).toBe(101);
    const [{ n }] = await connection.query<{ n: number }>(`SELECT count(DISTINCT event_id)::int AS n FROM ${SINK_SCHEMA}.ledger WHERE subject LIKE $1`, [
      `${runPrefix}%`,
    ]);
    expect(n).toBe(101);
    const rows = await balances(connection, runPrefix);
    for (let s = 0; s < 4; s++) {
      const extra = s === 0 ? 1 : 0;
      expect(rows.get(subjectName(runPrefix, s))).toEqual({
        subject: subjectName(runPrefix, s),
        total: expectedTotal(25 + extra),
        events: 25 + extra,
        last_sequence: 24 + extra,
        out_of_order: 0,
      });
    }
    await producer.waitForLine(/^RELAYED/, 30_000);
    await producer.kill('SIGTERM');
  });

  it('keeps writing while the brokers are down, then delivers everything in order', async () => {
    if (!brokerControl.available()) return; // needs the mock broker's control FIFO
    const runPrefix = `${prefix}-b`;
    await brokerControl.down();
    const producer = spawn(PRODUCER, { PROBE_PREFIX: runPrefix, SUBJECTS: '3', PER_SUBJECT: '20', BATCH: '7' });
    await producer.waitForLine(/^WRITTEN 60/, 60_000);
    // Committed, not published: the events wait in the outbox.
    await new Promise((r) => setTimeout(r, 1_500));
    const [{ backlog }] = await connection.query<{ backlog: number }>(
      `SELECT count(*)::int AS backlog FROM ${SOURCE_SCHEMA}.outbox_events WHERE key LIKE $1`,
      [`${runPrefix}%`],
    );
    expect(backlog).toBe(60);
    const [{ written }] = await connection.query<{ written: number }>(
      `SELECT count(*)::int AS written FROM ${SOURCE_SCHEMA}.ledger WHERE subject LIKE $1`,
      [`${runPrefix}%`],
    );
    expect(written).toBe(60);

    await brokerControl.up();
    await producer.waitForLine(/^RELAYED/, 90_000);
    await waitFor(async () => (await appliedCount(connection, runPrefix)) >= 60, { timeoutMs: 90_000, what: 'all 60 applied' });
    const rows = await balances(connection, runPrefix);
    for (let s = 0; s < 3; s++) {
      expect(rows.get(subjectName(runPrefix, s))).toEqual({
        subject: subjectName(runPrefix, s),
        total: expectedTotal(20),
        events: 20,
        last_sequence: 19,
        out_of_order: 0,
      });
    }
    expect(await appliedCount(connection, runPrefix)).toBe(60);
  });
});
