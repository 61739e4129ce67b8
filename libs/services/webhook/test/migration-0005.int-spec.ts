import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, type TestDatabase } from '@genasset/testing';
import { WEBHOOK_SCHEMA } from '../src/webhook.schema';

jest.setTimeout(60_000);

const MIGRATIONS = join(__dirname, '../prisma/migrations');

/** A database migrated before 0005 keeps every recorded attempt: they move into their delivery's row. */
describe('migration 0005 on a database with a delivery log', () => {
  let database: TestDatabase;
  let db: PostgresConnection;
  let before: string;

  beforeAll(async () => {
    database = await createTestDatabase('webhooks_0005');
    db = new PostgresConnection(database.url, { poolSize: 2 });
    // The schema as 0001–0004 left it (same names and texts: the migrator sees them as applied later).
    before = mkdtempSync(join(tmpdir(), 'webhooks-0004-'));
    for (const file of readdirSync(MIGRATIONS).filter((f) => f < '0005'))
      copyFileSync(join(MIGRATIONS, file), join(before, file));
    await migrate(db, {
      ...WEBHOOK_SCHEMA,
      migrations: [MESSAGING_MIGRATIONS, { source: 'webhooks', dir: before }],
    });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
    if (before) rmSync(before, { recursive: true, force: true });
  });

  it('moves each delivery’s attempts into its row, oldest first, and drops the table', async () => {
    await db.query(
      `INSERT INTO webhooks.webhook_endpoints (id, owner_type, owner_id, team_id, url, enabled_events, secret_ciphertext)
       VALUES ('we_1', 'project', 'proj_1', 'team_1', 'https://a.example/h', ARRAY['*'], 'sealed')`,
    );
    await db.query(
      `INSERT INTO webhooks.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, attempt_count)
       VALUES ('whevent_1', 'we_1', 'evt_1', 'generation.completed', '{"id":"whevent_1"}', 'success', 2),
              ('whevent_2', 'we_1', 'evt_2', 'generation.completed', '{"id":"whevent_2"}', 'created', 0)`,
    );
    await db.query(
      `INSERT INTO webhooks.webhook_attempts (delivery_id, response_status_code, sent_at, duration_ms, error)
       VALUES ('whevent_1', 200, '2026-11-20T10:01:00.250Z', 12, NULL),
              ('whevent_1', 500, '2026-11-20T10:00:00.125Z', 30000, 'timeout: no complete answer within 30000 ms')`,
    );

    const applied = await migrate(db, WEBHOOK_SCHEMA);
    // 0005 runs first on this log; later migrations follow it.
    expect(applied.filter((m) => m.applied).map((m) => m.name)[0]).toBe('webhooks/0005_delivery_fewer_writes.sql');

    const rows = await db.query<{ id: string; attempts: unknown }>(
      `SELECT id, attempts FROM webhooks.webhook_deliveries ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        id: 'whevent_1',
        attempts: [
          {
            responseStatusCode: 500,
            sentAt: '2026-11-20T10:00:00.125Z',
            durationMs: 30000,
            error: 'timeout: no complete answer within 30000 ms',
          },
          { responseStatusCode: 200, sentAt: '2026-11-20T10:01:00.250Z', durationMs: 12, error: null },
        ],
      },
      { id: 'whevent_2', attempts: [] },
    ]);
    expect(await db.query(`SELECT to_regclass('webhooks.webhook_attempts') AS t`)).toEqual([{ t: null }]);
  });
});
