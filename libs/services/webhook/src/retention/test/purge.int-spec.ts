import { Client } from 'pg';
import { migrate, PostgresConnection, type DatabaseConnection } from '@genasset/persistence';
import { createTestDatabase, waitFor, type ServiceHarness } from '@genasset/testing';
import { startDispatchHarness } from '../../dispatch/test/support/dispatch-test.module';
import { createEndpoint, enqueue } from '../../dispatch/test/support/webhook-rows';
import { WEBHOOK_SCHEMA } from '../../webhook.schema';
import { DeliveryPurge } from '../delivery-purge';

const DAY = 86_400_000;

/** Deliveries older than the retention go, whatever their endpoint; younger ones stay, attempts and all. */
describe('delivery retention purge', () => {
  let harness: ServiceHarness;
  beforeAll(async () => {
    harness = await startDispatchHarness({
      WEBHOOK_PURGE_INTERVAL: '300ms',
    });
  });
  afterAll(() => harness?.close());

  /** Deliveries created `ageDays` ago, each with one recorded attempt. */
  const aged = async (db: DatabaseConnection, endpointId: string, count: number, ageDays: number) => {
    const ids = await enqueue(db, endpointId, count);
    await db.query(
      `UPDATE webhooks.webhook_deliveries
          SET created_at = now() - $2 * interval '1 day', status = 'success', next_attempt_at = NULL, attempt_count = 1,
              attempts = jsonb_build_array(jsonb_build_object('responseStatusCode', 200, 'sentAt', now() - $2 * interval '1 day', 'durationMs', 5, 'error', null))
        WHERE id = ANY ($1::text[])`,
      [ids, ageDays],
    );
    return ids;
  };
  const existing = async (db: DatabaseConnection, ids: string[]) =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[])`,
        [ids],
      )
    )[0].n;
  const attemptsOf = async (db: DatabaseConnection, ids: string[]) =>
    (
      await db.query<{ n: number }>(
        `SELECT coalesce(sum(jsonb_array_length(attempts)), 0)::int AS n FROM webhooks.webhook_deliveries WHERE id = ANY ($1::text[])`,
        [ids],
      )
    )[0].n;

  it('deletes deliveries older than 90 days on its schedule, attempts included, and keeps the rest', async () => {
    // Paused, so the worker leaves these rows alone while the test shapes them.
    const endpoint = await createEndpoint(harness.db, { url: 'http://127.0.0.1:9/hooks', enabled: false });
    const other = await createEndpoint(harness.db, { url: 'http://127.0.0.1:9/other', enabled: false });
    const old = [...(await aged(harness.db, endpoint.id, 20, 91)), ...(await aged(harness.db, other.id, 10, 200))];
    const recent = [...(await aged(harness.db, endpoint.id, 5, 89)), ...(await aged(harness.db, other.id, 5, 1))];
    await waitFor(async () => (await existing(harness.db, old)) === 0, {
      timeoutMs: 10_000,
      what: 'old deliveries purged',
    });
    expect(await attemptsOf(harness.db, old)).toBe(0);
    expect(await existing(harness.db, recent)).toBe(10);
    expect(await attemptsOf(harness.db, recent)).toBe(10);
  });

  it('purges in batches, one replica at a time (advisory lock)', async () => {
    // Its own database: the harness's scheduled purge must not race this one for the lock.
    const database = await createTestDatabase('purge_lock');
    const db = new PostgresConnection(database.url, { poolSize: 2 });
    try {
      await migrate(db, WEBHOOK_SCHEMA);
      const endpoint = await createEndpoint(db, { url: 'http://127.0.0.1:9/hooks', enabled: false });
      const second = await createEndpoint(db, { url: 'http://127.0.0.1:9/second', enabled: false });
      const old = [...(await aged(db, endpoint.id, 15, 20)), ...(await aged(db, second.id, 10, 30))];
      const kept = [...(await aged(db, endpoint.id, 2, 5)), ...(await aged(db, second.id, 1, 9))];
      const purge = new DeliveryPurge(db, { retentionMs: 10 * DAY, intervalMs: 3_600_000, batchSize: 7 });

      // Another replica is purging: this one skips.
      const other = new Client({ connectionString: database.url });
      await other.connect();
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks.delivery-purge'))`);
      expect(await purge.purgeOnce()).toBe(-1);
      expect(await existing(db, old)).toBe(25);
      await other.query('ROLLBACK');
      await other.end();

      expect(await purge.purgeOnce()).toBe(25); // batches of 7, 7, 7, 4
      expect(await existing(db, old)).toBe(0);
      expect(await attemptsOf(db, old)).toBe(0);
      expect(await existing(db, kept)).toBe(3);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
