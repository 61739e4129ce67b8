import sharp, { type Sharp } from 'sharp';
import { TOPICS } from '@genasset/contracts';
import { S3ObjectStore } from '@genasset/storage';
import { testServices, TopicReader, waitFor } from '@genasset/testing';
import { startDownloadHarness, sha256, unzip } from './support/archive-fixtures';
import {
  dataUrl,
  listObjects,
  upload,
  type Json,
  type ServiceHarness,
  type Tenant,
} from './support/asset-fixtures';

/**
 * Batch downloads end to end: asset-service asks job-service for the job,
 * executes it from job.work.v1, streams the zip into S3 and reports back;
 * job-service publishes the lifecycle facts the webhook dispatcher turns into
 * asset.download.*. Real PostgreSQL, broker and S3 server.
 */
describe('batch downloads (POST /v1/assets/download, GET /v1/assets/download/{jobId})', () => {
  let harness: ServiceHarness;
  let t: Tenant;
  let lifecycle: TopicReader;
  let store: S3ObjectStore;

  beforeAll(async () => {
    harness = await startDownloadHarness();
    lifecycle = await new TopicReader(TOPICS.jobLifecycle).start();
    store = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
    t = await harness.tenant();
  });
  afterAll(async () => {
    await lifecycle?.stop();
    await store?.close();
    await harness?.close();
  });

  const request = (body: unknown, auth = t.auth.projectMember) =>
    harness.request('POST', '/v1/assets/download', { auth, body });
  const status = (jobId: string, auth = t.auth.projectMember) =>
    harness.request('GET', `/v1/assets/download/${jobId}`, { auth });
  const finished = (jobId: string) =>
    waitFor(
      async () => {
        const res = await status(jobId);
        return ['success', 'failure', 'canceled'].includes(res.body.jobStatus)
          ? (res.body as Json)
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: `download ${jobId} to finish` },
    );
  const jobCount = async (projectId = t.projectId) =>
    Number(
      (
        await harness.db.query<{ n: string }>(
          'SELECT count(*)::text AS n FROM jobs.jobs WHERE project_id = $1',
          [projectId],
        )
      )[0].n,
    );
  const downloadRows = async (projectId = t.projectId) =>
    Number(
      (
        await harness.db.query<{ n: string }>(
          'SELECT count(*)::text AS n FROM assets.asset_downloads WHERE project_id = $1',
          [projectId],
        )
      )[0].n,
    );

  /** Uploads distinct images and a canvas; returns each asset with the exact bytes it was uploaded with. */
  async function uploadSet(tenant: Tenant, images = 4): Promise<{ asset: Json; bytes: Buffer }[]> {
    const out: { asset: Json; bytes: Buffer }[] = [];
    for (let i = 0; i < images; i++) {
      const encode = i % 2 === 0 ? (s: Sharp) => s.png() : (s: Sharp) => s.jpeg();
      const bytes = await encode(
        sharp({
          create: { width: 40 + i, height: 30, channels: 3, background: { r: 20 * i, g: 100, b: 200 } },
        }),
      ).toBuffer();
      const asset = await upload(harness, tenant.auth.projectMember, {
        image: dataUrl(bytes),
        name: `img-${i}`,
      });
      out.push({ asset, bytes });
    }
    const canvas = JSON.stringify({ layers: [{ id: 'a', text: 'é'.repeat(500) }] });
    out.push({
      asset: await upload(harness, tenant.auth.projectMember, { canvas, name: 'canvas' }),
      bytes: Buffer.from(canvas),
    });
    return out;
  }

  it('builds a zip of the assets: every file byte for byte, job and lifecycle facts carry the signed URL', async () => {
    const set = await uploadSet(t);
    const res = await request({
      query: { assetIds: set.map((s) => s.asset.id), inferenceIds: [], modelIds: [] },
      options: { fileNameTemplate: '' },
    });
    expect(res.status).toBe(200);
    const { jobId } = res.body;
    expect(jobId).toMatch(/^job_/);
    expect(res.body.job).toMatchObject({
      jobId,
      jobType: 'assets-download',
      status: 'queued',
      ownerId: t.projectId,
    });

    const done = await finished(jobId);
    expect(done).toMatchObject({
      jobId,
      jobStatus: 'success',
      progress: 1,
      downloadUrl: expect.stringMatching(/^http/),
      expiresAt: expect.any(String),
    });
    // Valid about 24 hours.
    const ttl = Date.parse(done.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);

    const zipResponse = await fetch(done.downloadUrl);
    expect(zipResponse.status).toBe(200);
    expect(zipResponse.headers.get('content-disposition')).toContain(`assets-${jobId}.zip`);
    const entries = await unzip(Buffer.from(await zipResponse.arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual(
      set.map(
        (s) =>
          `${s.asset.id}.${s.asset.mimeType === 'image/png' ? 'png' : s.asset.mimeType === 'image/jpeg' ? 'jpg' : 'json'}`,
      ),
    );
    for (const [i, entry] of entries.entries()) expect(sha256(entry.bytes)).toBe(sha256(set[i].bytes));
    // Images are stored as they are; the canvas JSON is deflated.
    expect(entries.map((e) => e.compressionMethod)).toEqual([0, 0, 0, 0, 8]);

    const [created] = await lifecycle.waitFor(jobId, 'job.created');
    expect(created.envelope.data).toMatchObject({
      jobId,
      kind: 'asset-download',
      jobType: 'assets-download',
      projectId: t.projectId,
    });
    const [succeeded] = await lifecycle.waitFor(jobId, 'job.succeeded');
    expect(succeeded.envelope.data).toMatchObject({
      kind: 'asset-download',
      status: 'success',
      output: { downloadUrl: done.downloadUrl },
    });
    expect(lifecycle.of(jobId, 'job.started')).toHaveLength(1);

    const job = await harness.request('GET', `/v1/jobs/${jobId}`, { auth: t.auth.projectMember });
    expect(job.body.job.metadata.output).toMatchObject({
      downloadUrl: done.downloadUrl,
      assetCount: set.length,
      size: expect.any(Number),
    });
    expect(job.body.job.metadata.input).toEqual({ assetIds: set.map((s) => s.asset.id), options: {} });
    // The archive expires with its URL: its deletion is already scheduled.
    const [{ key }] = await harness.db.query<{ key: string }>(
      `SELECT archive_key AS key FROM assets.asset_downloads WHERE job_id = $1`,
      [jobId],
    );
    expect(key).toMatch(new RegExp(`^downloads/${t.projectId}/${jobId}/assets-[\\w-]+\\.zip$`));
    const [cleanup] = await harness.db.query<{ due: Date }>(
      'SELECT due_at AS due FROM assets.object_cleanup WHERE object_key = $1',
      [key],
    );
    expect(new Date(cleanup.due).getTime()).toBeGreaterThan(Date.now() + 24.9 * 3600_000);
  });

  it('short form, templates, folders per inference, duplicates once, safe and unique names', async () => {
    const [a, b] = await uploadSet(t, 2);
    // Make b an output of an inference with a prompt (as generation outputs are).
    await harness.db.query(
      `UPDATE assets.assets SET inference_id = 'inf_1', metadata = '{"prompt":"../a/fox","seed":7}' WHERE id = $1`,
      [b.asset.id],
    );
    const res = await request({
      assetIds: [a.asset.id, b.asset.id, a.asset.id],
      options: { fileNameTemplate: '<prompt>-<seed>' },
    });
    expect(res.status).toBe(200);
    const done = await finished(res.body.jobId);
    const entries = await unzip(Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual([`${a.asset.id}.png`, 'inf_1/a_fox-7.jpg']);
    expect(entries.map((e) => sha256(e.bytes))).toEqual([sha256(a.bytes), sha256(b.bytes)]);

    const flat = await request({ assetIds: [b.asset.id], options: { flat: true } });
    const flatEntries = await unzip(
      Buffer.from(await (await fetch((await finished(flat.body.jobId)).downloadUrl)).arrayBuffer()),
    );
    expect(flatEntries.map((e) => e.name)).toEqual([`${b.asset.id}.jpg`]);
  });

  it('inferenceIds and modelIds select the project’s outputs', async () => {
    const [a, b, c] = await uploadSet(t, 3);
    await harness.db.query(`UPDATE assets.assets SET inference_id = 'inf_sel' WHERE id = ANY($1)`, [
      [a.asset.id, b.asset.id],
    ]);
    await harness.db.query(`UPDATE assets.assets SET model_id = 'model_sel' WHERE id = $1`, [c.asset.id]);
    const res = await request({
      query: { assetIds: [], inferenceIds: ['inf_sel'], modelIds: ['model_sel'] },
      options: { flat: true },
    });
    expect(res.status).toBe(200);
    const entries = await unzip(
      Buffer.from(await (await fetch((await finished(res.body.jobId)).downloadUrl)).arrayBuffer()),
    );
    expect(entries.map((e) => e.name).sort()).toEqual(
      [a, b, c].map((s) => `${s.asset.id}.${s.asset.mimeType === 'image/png' ? 'png' : 'jpg'}`).sort(),
    );

    const none = await request({ query: { inferenceIds: ['inf_none'] } });
    expect(none).toMatchObject({
      status: 400,
      body: {
        apiError: 'validation_error',
        infos: { fields: { query: [expect.stringContaining('no asset')] } },
      },
    });
  });

  describe('refused requests create nothing', () => {
    it.each([
      ['1001 ids', (ids: string[]) => ({ assetIds: ids }), 'assetIds'],
      ['1001 ids in query', (ids: string[]) => ({ query: { assetIds: ids } }), 'query.assetIds'],
    ])('%s → 400 naming the field', async (_label, body, field) => {
      const ids = Array.from({ length: 1001 }, (_, i) => `asset_${String(i).padStart(26, '0')}`);
      const before = await jobCount();
      const res = await request(body(ids));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        apiError: 'validation_error',
        infos: { fields: { [field]: [expect.stringContaining('at most 1000')] } },
      });
      expect(await jobCount()).toBe(before);
    });

    it('more than 1000 assets through inferenceIds → 400', async () => {
      const rows = Array.from({ length: 1001 }, (_, i) => `asset_INF${String(i).padStart(20, '0')}`);
      await harness.db.query(
        `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, storage_key, properties, inference_id)
         SELECT id, $2, $3, 'key_x', 'uploaded', 'image', 'image/png', 'k/' || id, '{"size":1}', 'inf_big' FROM unnest($1::text[]) AS id`,
        [rows, t.teamId, t.projectId],
      );
      const before = await jobCount();
      const res = await request({ query: { inferenceIds: ['inf_big'] } });
      expect(res).toMatchObject({
        status: 400,
        body: { infos: { fields: { query: [expect.stringContaining('at most 1000')] } } },
      });
      expect(await jobCount()).toBe(before);
      await harness.db.query(`DELETE FROM assets.assets WHERE inference_id = 'inf_big'`);
    });

    it('another project’s (or unknown) ids → 404 naming them; nothing created', async () => {
      const other = await harness.tenant();
      const [foreign] = await uploadSet(other, 1);
      const [mine] = await uploadSet(t, 1);
      const before = [await jobCount(), await downloadRows()];
      const unknown = 'asset_01JZZZZZZZZZZZZZZZZZZZZZZZ';
      const res = await request({ assetIds: [mine.asset.id, foreign.asset.id, unknown] });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        apiError: 'not_found',
        infos: { assetIds: [foreign.asset.id, unknown] },
      });
      expect([await jobCount(), await downloadRows()]).toEqual(before);
      // The other tenant's GET of our job is a 404 too.
      const ok = await request({ assetIds: [mine.asset.id] });
      expect((await status(ok.body.jobId, other.auth.projectMember)).status).toBe(404);
      expect((await status(ok.body.jobId, t.auth.teamAdmin)).status).toBe(400); // a team key must name the project
      expect(
        (
          await harness.request('GET', `/v1/assets/download/${ok.body.jobId}?projectId=${t.projectId}`, {
            auth: t.auth.teamAdmin,
          })
        ).status,
      ).toBe(200);
    });

    it.each([
      ['nothing', {}],
      ['both forms', { assetIds: ['asset_A'], query: { assetIds: ['asset_B'] } }],
      ['a malformed id', { assetIds: ['nope'] }],
      ['an unknown field', { assetIds: ['asset_A'], extra: 1 }],
      ['flat as a string', { assetIds: ['asset_A'], options: { flat: 'yes' } }],
    ])('%s → 400', async (_label, body) => {
      const before = await jobCount();
      expect((await request(body)).status).toBe(400);
      expect(await jobCount()).toBe(before);
    });

    it('GET of a malformed, unknown or non-download job → 400 / 404', async () => {
      expect((await status('nope')).status).toBe(400);
      expect((await status('job_01JZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
      expect(
        (await harness.request('POST', '/v1/assets/download', { body: { assetIds: ['asset_A'] } })).status,
      ).toBe(401);
    });
  });

  it('an object missing from storage fails the job with a reason naming the asset (asset.download.failed)', async () => {
    const [a, b] = await uploadSet(t, 2);
    const [row] = await harness.db.query<{ key: string }>(
      'SELECT storage_key AS key FROM assets.assets WHERE id = $1',
      [b.asset.id],
    );
    await store.delete([row.key]);
    const res = await request({ assetIds: [a.asset.id, b.asset.id] });
    const done = await finished(res.body.jobId);
    expect(done).toMatchObject({
      jobStatus: 'failure',
      errorMessage: expect.stringContaining(`asset ${b.asset.id} is missing from storage`),
    });
    expect(done.downloadUrl).toBeUndefined();
    const [failed] = await lifecycle.waitFor(res.body.jobId, 'job.failed');
    expect(failed.envelope.data.failureReason).toContain(b.asset.id);
    // The partial archive is gone.
    await waitFor(
      async () => (await listObjects(`downloads/${t.projectId}/${res.body.jobId}/`)).length === 0,
      { what: 'partial archive deleted' },
    );
  });

  it('assets deleted after the request are left out and reported; all deleted → the job fails', async () => {
    const [a, b] = await uploadSet(t, 2);
    // Hold the queue table while the job is asked for and an asset deleted: the archive work can only be recorded afterwards.
    const jobId = await harness.db.transaction(async (query) => {
      await query('LOCK TABLE assets.asset_downloads IN EXCLUSIVE MODE');
      const res = await request({ assetIds: [a.asset.id, b.asset.id] });
      expect(
        (
          await harness.request('DELETE', '/v1/assets', {
            auth: t.auth.projectMember,
            body: { assetIds: [b.asset.id] },
          })
        ).status,
      ).toBe(200);
      return res.body.jobId as string;
    });
    const done = await finished(jobId);
    expect(done).toMatchObject({ jobStatus: 'success', skippedAssetIds: [b.asset.id] });
    const entries = await unzip(Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual([`${a.asset.id}.png`]);

    const gone = await harness.db.transaction(async (query) => {
      await query('LOCK TABLE assets.asset_downloads IN EXCLUSIVE MODE');
      const res = await request({ assetIds: [a.asset.id] });
      await harness.request('DELETE', '/v1/assets', {
        auth: t.auth.projectMember,
        body: { assetIds: [a.asset.id] },
      });
      return res.body.jobId as string;
    });
    expect(await finished(gone)).toMatchObject({
      jobStatus: 'failure',
      errorMessage: expect.stringContaining('deleted'),
    });
  });
});
