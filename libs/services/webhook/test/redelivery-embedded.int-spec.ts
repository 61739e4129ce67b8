import { migrate, PgliteConnection } from '@genasset/persistence';
import { RecoverDeliveries } from '../src/deliveries/recover-deliveries.use-case';
import { RedeliveryRepository } from '../src/deliveries/redelivery.repository';
import { ResendDelivery } from '../src/deliveries/resend-delivery.use-case';
import { loadWebhookConfig } from '../src/webhook.config';
import { WebhookPrisma } from '../src/webhook.prisma';
import { WEBHOOK_SCHEMA } from '../src/webhook.schema';

jest.setTimeout(60_000);

/**
 * Embedded mode runs the delivery operations' raw SQL on PGlite (row locks, advisory locks, JSON
 * recordsets, array parameters through Prisma's PGlite adapter): the same statements as on
 * PostgreSQL, checked here on the embedded database.
 */
describe('resend and recover on PGlite (embedded mode)', () => {
  let db: PgliteConnection;
  let prisma: WebhookPrisma;
  const owner = { type: 'project', id: 'proj_1', teamId: 'team_1' } as const;

  beforeAll(async () => {
    db = await PgliteConnection.open();
    await migrate(db, WEBHOOK_SCHEMA);
    prisma = new WebhookPrisma(db);
    await db.query(
      `INSERT INTO webhooks.webhook_endpoints (id, owner_type, owner_id, team_id, url, enabled_events, secret_ciphertext)
       VALUES ('we_1', 'project', 'proj_1', 'team_1', 'https://a.example/h', ARRAY['*'], 'sealed')`,
    );
    await db.query(
      `INSERT INTO webhooks.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, created_at)
       SELECT 'whevent_' || i, 'we_1', 'evt_' || i, 'generation.completed',
              ('{"id":"whevent_' || i || '","type":"generation.completed","data":{"jobId":"job_' || i || '"}}')::json,
              CASE WHEN i <= 3 THEN 'failed' ELSE 'success' END, now() - i * interval '1 minute'
         FROM generate_series(1, 5) AS i`,
    );
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
  });

  it('resends with the same payload text, then recovers the other failed events once', async () => {
    const repository = new RedeliveryRepository(prisma);
    const { webhookEvent } = await new ResendDelivery(repository).execute(owner, 'we_1', 'whevent_1');
    expect(webhookEvent).toMatchObject({ status: 'created', resendOf: 'whevent_1' });
    const [copy] = await db.query<{ payload: string }>(
      'SELECT payload::text AS payload FROM webhooks.webhook_deliveries WHERE id = $1',
      [webhookEvent.id],
    );
    expect(copy.payload).toBe('{"id":"whevent_1","type":"generation.completed","data":{"jobId":"job_1"}}');

    const recover = new RecoverDeliveries(repository, loadWebhookConfig({}));
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect(await recover.execute(owner, 'we_1', { since })).toEqual({ queued: 2 });
    expect(await recover.execute(owner, 'we_1', { since })).toEqual({ queued: 0 });
    const resent = await db.query<{ resend_of: string }>(
      'SELECT resend_of FROM webhooks.webhook_deliveries WHERE resend_of IS NOT NULL ORDER BY resend_of',
    );
    expect(resent.map((r) => r.resend_of)).toEqual(['whevent_1', 'whevent_2', 'whevent_3']);
  });
});
