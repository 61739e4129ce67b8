import { randomBytes } from 'node:crypto';
import { IDENTITY_SCHEMA } from '@genasset/identity';
import { migrate, PostgresConnection } from '@genasset/persistence';
import {
  createTestDatabase,
  freePort,
  spawnTsProcess,
  testServices,
  WebhookReceiver,
  waitFor,
  type SpawnedProcess,
  type TestDatabase,
} from '@genasset/testing';
import { WEBHOOK_SCHEMA } from '../../webhook.schema';
import { createEndpoint, enqueue, statusCounts, TEST_SECRET_KEY } from './support/webhook-rows';

// Separate OS processes on one database: SWC start-up and 1,000 real POSTs on 2 cores.
jest.setTimeout(180_000);

/** The DispatchModule alone in a process; prints READY, and STATS (attempts made) after SIGTERM. */
const FIXTURE = 'libs/services/webhook/src/dispatch/test/support/dispatcher.main.ts';
/** The real app. */
const APP = 'apps/webhook-dispatcher/src/main.ts';

/**
 * Dispatchers as their own processes: the app killed with SIGKILL mid-batch,
 * drained with SIGTERM, and two replicas sharing one queue.
 */
describe('dispatcher processes', () => {
  let database: TestDatabase;
  let db: PostgresConnection;
  let receiver: WebhookReceiver;
  const running: SpawnedProcess[] = [];
  const env = () => ({
    DATABASE_URL: database.url,
    NODE_ENV: 'test',
    WEBHOOK_SECRET_KEY: TEST_SECRET_KEY,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS: '300ms,600ms',
    WEBHOOK_TIMEOUT: '2s',
    // A crashed dispatcher's claims come back after 2 s + 4 s. The margin is what a live replica may
    // stall (GC, a starved CPU) before the other one takes its claims: at 1 s, a loaded 2-core CI
    // machine saw 240 of 1,000 deliveries sent twice by the two-replica case.
    WEBHOOK_LEASE_MARGIN: '4s',
    WEBHOOK_POLL_INTERVAL: '200ms',
    WEBHOOK_ENDPOINT_CONCURRENCY: '8',
    WEBHOOK_MAX_IN_FLIGHT: '64',
    WEBHOOK_CLAIM_BATCH: '64',
  });
  const dispatcher = async () => {
    const child = spawnTsProcess(FIXTURE, env());
    running.push(child);
    await child.waitForLine(/^READY/, 90_000);
    return child;
  };
  /** apps/webhook-dispatcher as deployed (intake, API, workers); `ready`: wait for /readyz (workers start before it). */
  const app = async (ready = true) => {
    const port = await freePort();
    const child = spawnTsProcess(APP, {
      ...env(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: testServices().kafkaBrokers.join(','),
      KAFKA_GROUP_PREFIX: `drill-${randomBytes(4).toString('hex')}.`,
      KAFKA_FROM_BEGINNING: 'false',
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
    });
    running.push(child);
    if (ready)
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, {
        timeoutMs: 90_000,
        intervalMs: 200,
        what: 'dispatcher app /readyz',
      });
    return child;
  };
  const stats = (child: SpawnedProcess) =>
    JSON.parse(/^STATS (.*)$/m.exec(child.output())![1]) as { attempted: number; claimed: number };
  const endpoints = async (n: number) =>
    Promise.all(Array.from({ length: n }, () => createEndpoint(db, { url: receiver.url })));
  const queue = async (endpointIds: string[], perEndpoint: number) =>
    (await Promise.all(endpointIds.map((id) => enqueue(db, id, perEndpoint)))).flat();
  const receivedIds = () => receiver.requests.map((r) => JSON.parse(r.rawBody.toString()).id as string);

  beforeAll(async () => {
    database = await createTestDatabase('dispatch_processes');
    db = new PostgresConnection(database.url, { poolSize: 4 });
    for (const definition of [IDENTITY_SCHEMA, WEBHOOK_SCHEMA]) await migrate(db, definition);
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.kill('SIGKILL')));
    receiver.clear();
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.close();
    await database?.drop();
  });

  it('loses nothing when the dispatcher app is SIGKILLed with 1,000 deliveries due: after a restart every one is delivered and final', async () => {
    receiver.respondWith({ status: 200, delayMs: 100 });
    const ids = await queue(
      (await endpoints(10)).map((e) => e.id),
      100,
    );
    expect(ids).toHaveLength(1_000);

    const first = await app(false);
    await receiver.waitForRequests(300, 90_000);
    expect(await first.kill('SIGKILL')).toBeNull();
    const atKill = receiver.requests.length;
    const before = await statusCounts(db, ids);
    const [{ leased }] = await db.query<{ leased: number }>(
      `SELECT count(*)::int AS leased FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[]) AND lease_until > now()`,
      [ids],
    );
    expect(before.success ?? 0).toBeLessThan(1_000);

    await app();
    await waitFor(async () => (await statusCounts(db, ids)).success === 1_000, {
      timeoutMs: 90_000,
      intervalMs: 250,
      what: '1,000 deliveries success',
    });

    const received = receivedIds();
    const unique = new Set(received);
    expect([...unique].sort()).toEqual([...ids].sort()); // each delivered at least once, nothing foreign
    const duplicates = received.length - unique.size;
    const [{ attempts }] = await db.query<{ attempts: number }>(
      `SELECT sum(jsonb_array_length(attempts))::int AS attempts FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[])`,
      [ids],
    );
    const [{ unfinished }] = await db.query<{ unfinished: number }>(
      `SELECT count(*)::int AS unfinished FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[]) AND (lease_until IS NOT NULL OR next_attempt_at IS NOT NULL)`,
      [ids],
    );
    expect(unfinished).toBe(0);
    expect(attempts).toBeGreaterThanOrEqual(1_000);
    // At most the attempts in flight or unrecorded at the kill are sent twice (at-least-once; receivers dedupe on id).
    expect(duplicates).toBeLessThanOrEqual(atKill - (before.success ?? 0));
    console.log(
      `SIGKILL drill: ${atKill} requests received before the kill, ${before.success ?? 0} recorded success, ${leased} leased in flight; ` +
        `after restart all 1000 success, ${received.length} requests in all, ${duplicates} duplicate(s), ${attempts} attempts recorded`,
    );
  });

  it('drains on SIGTERM: attempts in flight finish and are recorded before the process exits', async () => {
    receiver.respondWith({ status: 200, delayMs: 700 });
    const ids = await queue(
      (await endpoints(2)).map((e) => e.id),
      8,
    );
    const child = await dispatcher();
    await receiver.waitForRequests(8, 30_000);
    expect(await child.kill('SIGTERM')).toBe(0);
    const counts = await statusCounts(db, ids);
    // Whatever had been sent when the signal came was answered and recorded; nothing is left leased.
    expect(counts.success).toBe(receiver.requests.length);
    const [{ leased }] = await db.query<{ leased: number }>(
      `SELECT count(*)::int AS leased FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[]) AND lease_until IS NOT NULL`,
      [ids],
    );
    expect(leased).toBe(0);
    expect(stats(child).attempted).toBe(receiver.requests.length);
  });

  it('shares one queue between two replicas with no delivery attempted twice', async () => {
    receiver.respondWith({ status: 200, delayMs: 5 });
    const [a, b] = await Promise.all([dispatcher(), dispatcher()]);
    const endpointRows = await endpoints(10);
    const ids = await queue(
      endpointRows.map((e) => e.id),
      100,
    );
    await waitFor(async () => (await statusCounts(db, ids)).success === 1_000, {
      timeoutMs: 90_000,
      intervalMs: 250,
      what: '1,000 deliveries success',
    });

    const received = receivedIds();
    expect(received).toHaveLength(1_000);
    expect(new Set(received).size).toBe(1_000);
    const [{ attempts }] = await db.query<{ attempts: number }>(
      `SELECT sum(jsonb_array_length(attempts))::int AS attempts FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[])`,
      [ids],
    );
    expect(attempts).toBe(1_000);
    const [{ total }] = await db.query<{ total: number }>(
      `SELECT sum(nb_total_calls)::int AS total FROM webhooks.webhook_endpoints WHERE id = ANY ($1::text[])`,
      [endpointRows.map((e) => e.id)],
    );
    expect(total).toBe(1_000);

    await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
    const [sa, sb] = [stats(a), stats(b)];
    expect(sa.attempted + sb.attempted).toBe(1_000);
    expect(sa.attempted).toBeGreaterThan(0);
    expect(sb.attempted).toBeGreaterThan(0);
    console.log(`two replicas: ${sa.attempted} + ${sb.attempted} attempts`);
  });
});
