import type { LoggerService } from '@nestjs/common';
import { migrate, type DatabaseConnection } from '@genasset/persistence';
import { reclaimLeasesAtStart } from '@genasset/runtime';
import { ALL_SCHEMAS, SERVICES } from '@genasset/service-catalog';
import { DATABASE_KINDS, openTestConnection, type TestConnection } from '@genasset/testing';

/**
 * What an embedded process ends at start (reclaimLeasesAtStart with the platform's services):
 * every lease of every work queue it runs, so a crashed predecessor's work is taken again at
 * once; and nothing else (queued rows, an upload's retry back-off). With PostgreSQL nothing at
 * all: other replicas may be alive there, and their leases are live.
 */
describe.each(DATABASE_KINDS)('leases reclaimed at start on %s', (_label, kind) => {
  let opened: TestConnection | undefined;
  let db: DatabaseConnection;
  const logged: string[] = [];
  const logger = { log: (m: string) => logged.push(m), warn: () => undefined, error: () => undefined } as unknown as LoggerService;
  const LEASED = `now() + interval '60 seconds'`;

  beforeAll(async () => {
    opened = await openTestConnection(kind, 'lease_reclaim');
    db = opened.db;
    for (const definition of ALL_SCHEMAS) await migrate(db, definition);
    const work = (id: string, status: string, lease: string) =>
      db.query(
        `INSERT INTO inference.work_items (job_id, job_type, mode, team_id, project_id, input, status, attempts, claim_token, lease_until)
         VALUES ($1, 'inference', 'txt2img', 'team_1', 'proj_1', '{}', $2, 1, 'token', ${lease})`,
        [id, status],
      );
    await work('job_running', 'running', LEASED);
    await work('job_queued', 'queued', 'NULL');
    await db.query(
      `INSERT INTO assets.asset_downloads (job_id, team_id, project_id, asset_ids, status, claimed_by, lease_until)
       VALUES ('job_archive', 'team_1', 'proj_1', '{}', 'running', 'worker-dead', ${LEASED})`,
    );
    const upload = (id: string, claimedBy: string | null) =>
      db.query(
        `INSERT INTO assets.uploads (id, team_id, project_id, author_id, kind, file_name, original_file_name, content_type,
                                     file_size, parts_count, part_size, object_key, multipart_upload_id, status, claimed_by, lease_until, expires_at)
         VALUES ($1, 'team_1', 'proj_1', 'key_1', 'image', 'a.png', 'a.png', 'image/png', 10, 1, 10, 'k', 'm', 'validating', $2, ${LEASED}, now() + interval '1 day')`,
        [id, claimedBy],
      );
    await upload('upload_claimed', 'worker-dead');
    // Given back with a retry delay (UploadRepository.release): lease_until is its back-off, not a lease.
    await upload('upload_backing_off', null);
    await db.query(
      `INSERT INTO webhooks.webhook_endpoints (id, owner_type, owner_id, team_id, url, enabled_events, secret_ciphertext)
       VALUES ('we_1', 'project', 'proj_1', 'team_1', 'https://example.com/hooks', '{*}', 'x')`,
    );
    const delivery = (id: string, status: string, lease: string) =>
      db.query(
        `INSERT INTO webhooks.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at, lease_until)
         VALUES ($1, 'we_1', $1, 'job.succeeded', '{}', $2, now(), ${lease})`,
        [id, status],
      );
    await delivery('whd_leased', 'created', LEASED);
    await delivery('whd_done', 'success', LEASED);

    await reclaimLeasesAtStart(db, SERVICES, logger);
  });
  afterAll(() => opened?.close());

  const leaseOver = async (sql: string, id: string) =>
    (await db.query<{ over: boolean }>(sql, [id]))[0].over;
  const workOver = (id: string) => leaseOver(`SELECT lease_until < now() AS over FROM inference.work_items WHERE job_id = $1`, id);
  const archiveOver = (id: string) => leaseOver(`SELECT lease_until < now() AS over FROM assets.asset_downloads WHERE job_id = $1`, id);
  const uploadOver = (id: string) => leaseOver(`SELECT lease_until < now() AS over FROM assets.uploads WHERE id = $1`, id);
  const deliveryOver = (id: string) =>
    leaseOver(`SELECT lease_until IS NULL OR lease_until < now() AS over FROM webhooks.webhook_deliveries WHERE id = $1`, id);

  if (kind === 'pglite') {
    it('ends the lease of every claimed row, so the workers claim them again at once, and says how many', async () => {
      expect(await workOver('job_running')).toBe(true);
      expect(await archiveOver('job_archive')).toBe(true);
      expect(await uploadOver('upload_claimed')).toBe(true);
      expect(await deliveryOver('whd_leased')).toBe(true);
      expect(logged).toEqual([
        'reclaimed work a previous run left unfinished (it stopped without giving it back): asset-service 2, inference-worker 1, webhook-dispatcher 1',
      ]);
    });

    it('leaves the rest as it was: queued work, an upload backing off, finished deliveries', async () => {
      expect(
        await db.query(`SELECT status, lease_until IS NULL AS unleased, attempts FROM inference.work_items WHERE job_id = 'job_queued'`),
      ).toEqual([{ status: 'queued', unleased: true, attempts: 1 }]);
      expect(await uploadOver('upload_backing_off')).toBe(false);
      expect(await deliveryOver('whd_done')).toBe(false);
    });
  } else {
    it('changes nothing with PostgreSQL, where other replicas may be alive', async () => {
      expect(await workOver('job_running')).toBe(false);
      expect(await archiveOver('job_archive')).toBe(false);
      expect(await uploadOver('upload_claimed')).toBe(false);
      expect(await deliveryOver('whd_leased')).toBe(false);
      expect(logged).toEqual([]);
    });
  }
});
