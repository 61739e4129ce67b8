import { createTestDatabase, waitFor, type TestDatabase } from '@genasset/testing';
import { PostgresConnection } from '../src/postgres-connection';

// The server ending a session mid-transaction (a restart, a failover, an operator's
// pg_terminate_backend) must fail that transaction, not crash the process.
describe('PostgresConnection when the server ends a session', () => {
  let database: TestDatabase;
  let db: PostgresConnection;
  let admin: PostgresConnection;

  beforeAll(async () => {
    database = await createTestDatabase('pg_connection');
    db = new PostgresConnection(database.url, { poolSize: 2, applicationName: 'terminated-tx' });
    admin = new PostgresConnection(database.url, { poolSize: 1 });
  });
  afterAll(async () => {
    await db?.close();
    await admin?.close();
    await database?.drop();
  });

  it('fails the transaction whose session was terminated between two queries, and serves the next one', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = db.transaction(async (query) => {
        await query('SELECT 1');
        // The session is killed while the callback awaits something else (the broker, S3...).
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'terminated-tx' AND pid <> pg_backend_pid()");
        await new Promise((r) => setTimeout(r, 300));
        return query('SELECT 2 AS two');
      });
      await expect(outcome).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught).toEqual([]);
      expect(await db.transaction((query) => query<{ three: number }>('SELECT 3 AS three'))).toEqual([{ three: 3 }]);
      expect(await db.query<{ four: number }>('SELECT 4 AS four')).toEqual([{ four: 4 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('re-subscribes a LISTEN whose session was terminated and calls onGap, so a sleeping loop looks once', async () => {
    const payloads: string[] = [];
    let gaps = 0;
    const unlisten = await db.listen('gap_probe', (payload) => payloads.push(payload), () => gaps++);
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      );
      await waitFor(() => gaps === 1, { timeoutMs: 10_000, what: 'onGap after the LISTEN session was reopened' });
      await admin.query("SELECT pg_notify('gap_probe', 'after')");
      await waitFor(() => payloads.length === 1, { what: 'a NOTIFY on the reopened session' });
      expect(payloads).toEqual(['after']);
    } finally {
      await unlisten();
    }
  });
});
