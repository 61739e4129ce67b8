import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvelope, ProbeRecorded, TOPICS } from '@genasset/contracts';
import { migrate, PostgresConnection } from '@genasset/persistence';
import {
  createTestDatabase,
  freePort,
  primeConsumerGroups,
  spawnTsProcess,
  testServices,
  waitFor,
  type SpawnedProcess,
  type TestDatabase,
} from '@genasset/testing';
import { Kafka, logLevel } from 'kafkajs';
import { LIFECYCLE_SCHEMA } from './fixtures/lifecycle-probe';

// Above the sum of the steps' own limits (readiness 90 s, lag 30 s, handling 60 s, exit, takeover
// 90 s): on a slow machine a step fails with its own message rather than the whole test timing out.
jest.setTimeout(400_000);

const FIXTURE = 'libs/runtime/test/fixtures/lifecycle-probe.main.ts';
const GRACE_MS = 15_000;

/**
 * A process built by runProcess, as in production: ready only once database
 * and broker answer and its consumer group has joined; on SIGTERM it turns
 * unready, stops taking HTTP requests, lets the handler in flight finish and
 * commit (transaction and offset), and exits 0 within SHUTDOWN_GRACE.
 */
describe('process lifecycle: readiness and SIGTERM', () => {
  const prefix = `lc${randomBytes(3).toString('hex')}`;
  const group = `${prefix}-`;
  const consumer = 'lifecycle-probe';
  let db: TestDatabase;
  let connection: PostgresConnection;
  let dataDir: string;
  const running: SpawnedProcess[] = [];

  const start = async () => {
    const port = await freePort();
    const proc = spawnTsProcess(FIXTURE, {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: testServices().kafkaBrokers.join(','),
      KAFKA_GROUP_PREFIX: group,
      PROBE_CONSUMER: consumer,
      PROBE_PREFIX: prefix,
      HANDLER_MS: '2000',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SHUTDOWN_GRACE: `${GRACE_MS / 1000}s`,
      LOG_LEVEL: 'warn',
    });
    running.push(proc);
    return { proc, url: `http://127.0.0.1:${port}` };
  };

  const applied = async () =>
    (
      await connection.query<{ event_id: string }>('SELECT event_id FROM lcprobe.applied ORDER BY event_id')
    ).map((r) => r.event_id);

  beforeAll(async () => {
    db = await createTestDatabase('runtime_lifecycle');
    connection = new PostgresConnection(db.url);
    await migrate(connection, LIFECYCLE_SCHEMA);
    // The probe topic holds every earlier test's probe events: start the group at its end, as a
    // deployment's group that has consumed so far would be (KAFKA_FROM_BEGINNING stays the default).
    await primeConsumerGroups(testServices().kafkaBrokers, [`${group}${consumer}`], [TOPICS.platformProbe]);
    dataDir = mkdtempSync(join(tmpdir(), 'lifecycle-'));
  });

  afterAll(async () => {
    await Promise.all(running.map((p) => p.kill('SIGKILL')));
    await connection?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready only with database, broker and a joined group; SIGTERM mid-handler loses nothing and exits 0 in time', async () => {
    const first = await start();
    // Ready = every check passes, the consumer's among them.
    const ready = await waitFor(
      async () => {
        const res = await fetch(`${first.url}/readyz`).catch(() => undefined);
        return res?.status === 200 ? ((await res.json()) as { checks: Record<string, string> }) : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 250, what: '/readyz 200' },
    );
    expect(ready.checks).toEqual({ database: 'ok', broker: 'ok' });
    // The lag is read from the broker at scrape time, within 3 s: the first scrape also connects the
    // metrics' own admin client, which on a loaded machine can take longer (that scrape then has no lag).
    const lagLine = new RegExp(
      `^messaging_consumer_lag\\{group="${group}${consumer}",topic="${TOPICS.platformProbe}",partition="\\d+"\\} \\d+$`,
      'm',
    );
    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(`${first.url}/metrics`)).text();
        return lagLine.test(text) ? text : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'consumer lag in /metrics' },
    );
    expect(metrics).toMatch(lagLine);
    expect(metrics).toContain('outbox_backlog_events{schema="lcprobe"} 0');

    // Six events on six keys: several partitions, handled concurrently, 2 s each.
    const events = Array.from({ length: 6 }, (_, i) =>
      createEnvelope(
        ProbeRecorded,
        { subject: `${prefix}-${i}`, sequence: 0, amount: 1 },
        { producer: 'test' },
      ),
    );
    const kafka = new Kafka({
      brokers: testServices().kafkaBrokers,
      clientId: 'lifecycle-test',
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const placed = new Map<string, { partition: number; offset: bigint }>();
    for (const e of events) {
      const [meta] = await producer.send({
        topic: TOPICS.platformProbe,
        acks: -1,
        messages: [{ key: e.data.subject, value: JSON.stringify(e) }],
      });
      placed.set(e.id, { partition: meta.partition, offset: BigInt(meta.baseOffset!) });
    }
    await producer.disconnect();

    const handling = (await first.proc.waitForLine(/^HANDLING /, 60_000)).split(' ')[1];
    // Listen for the exit before signalling: a quick shutdown can end while the /readyz check below
    // is still in flight, and an 'exit' that has already fired is never seen by a later listener.
    const firstExited = new Promise<number | null>((resolve) => first.proc.child.on('exit', resolve));
    const sent = Date.now();
    first.proc.child.kill('SIGTERM');
    // Intake stops at once: unready or refused, never served as usual. kill() returns before the child
    // has run its handler, so a request sent at once can still be answered first (seen in CI, with
    // three test files on two cores): readiness must drop within a moment of the signal.
    const during = await waitFor(
      async () => {
        const status = await fetch(`${first.url}/readyz`).then(
          (r) => r.status,
          () => 'refused' as const,
        );
        return status === 200 ? undefined : status;
      },
      { timeoutMs: 2_000, intervalMs: 50, what: 'readiness to drop after SIGTERM' },
    );
    expect([503, 'refused']).toContain(during);
    const code = await within(firstExited, GRACE_MS + 30_000, 'the first process to exit after SIGTERM');
    const took = Date.now() - sent;
    expect(code).toBe(0);
    expect(took).toBeLessThan(GRACE_MS);
    // The handler that was running finished and committed before the exit.
    expect(first.proc.output()).toContain(`APPLIED ${handling}`);
    const afterFirst = await applied();
    expect(afterFirst).toContain(handling);

    // Their offsets were committed too, before the exit.
    const admin = kafka.admin();
    await admin.connect();
    const [committed] = await admin.fetchOffsets({
      groupId: `${group}${consumer}`,
      topics: [TOPICS.platformProbe],
    });
    await admin.disconnect();
    for (const id of afterFirst) {
      const { partition, offset } = placed.get(id)!;
      const at = committed.partitions.find((p) => p.partition === partition)!;
      expect(BigInt(at.offset)).toBeGreaterThan(offset);
    }

    // A new process in the same group takes over the rest; nothing is lost or applied twice.
    const second = await start();
    await waitFor(async () => (await applied()).length === events.length, {
      timeoutMs: 90_000,
      intervalMs: 250,
      what: 'all six applied',
    });
    expect((await applied()).sort()).toEqual(events.map((e) => e.id).sort());
    const again = second.proc
      .output()
      .split('\n')
      .filter((l) => l.startsWith('HANDLING '))
      .map((l) => l.split(' ')[1]);
    for (const id of afterFirst) expect(again).not.toContain(id);

    const secondExited = new Promise<number | null>((resolve) => second.proc.child.on('exit', resolve));
    second.proc.child.kill('SIGTERM');
    expect(await within(secondExited, GRACE_MS + 30_000, 'the second process to exit after SIGTERM')).toBe(0);
  });
});

/** `promise`, or a failure naming what did not happen within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
