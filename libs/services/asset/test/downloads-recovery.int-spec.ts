import { randomBytes } from 'node:crypto';
import { S3ObjectStore } from '@genasset/storage';
import { testServices, waitFor } from '@genasset/testing';
import { startDownloadHarness, sha256, unzip } from './support/archive-fixtures';
import { uploadImage, type Json, type ServiceHarness, type Tenant } from './support/asset-fixtures';

const MiB = 1024 * 1024;

/**
 * The archive worker under load and failure: a multipart archive bigger than
 * one part, a worker that died holding a claim, one that keeps dying, and
 * storage that keeps failing. Real PostgreSQL, broker and S3 server.
 */
describe('batch download workers: large archives, crashes, retries', () => {
  let harness: ServiceHarness;
  let t: Tenant;
  let store: S3ObjectStore;

  beforeAll(async () => {
    harness = await startDownloadHarness({
      // Long enough that a live worker on a loaded CI machine keeps its claim; the crash tests
      // below write rows whose lease has already run out, so they do not wait on it.
      ASSET_DOWNLOAD_LEASE: '30s',
      ASSET_DOWNLOAD_RETRY_DELAYS: '100ms,200ms',
      ASSET_DOWNLOAD_POLL_INTERVAL: '200ms',
    });
    store = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
    t = await harness.tenant();
  });
  afterAll(async () => {
    await store?.close();
    await harness?.close();
  });

  const request = (assetIds: string[]) =>
    harness.request('POST', '/v1/assets/download', { auth: t.auth.projectMember, body: { assetIds } });
  /** The job's terminal state; on timeout the error names the job status and the work row seen last. */
  const finished = async (jobId: string) => {
    let seen: unknown;
    return waitFor(
      async () => {
        const res = await harness.request('GET', `/v1/assets/download/${jobId}`, {
          auth: t.auth.projectMember,
        });
        if (['success', 'failure'].includes(res.body.jobStatus)) return res.body as Json;
        seen = { jobStatus: res.body.jobStatus, work: await row(jobId) };
        return undefined;
      },
      { timeoutMs: 90_000, intervalMs: 100, what: `download ${jobId}` },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last seen ${JSON.stringify(seen)}`);
    });
  };
  const row = async (jobId: string) =>
    (
      await harness.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM assets.asset_downloads WHERE job_id = $1',
        [jobId],
      )
    )[0];

  /** An asset whose object an executor stored (as video uploads and job outputs are): bytes straight to S3, then the row. */
  async function storedAsset(
    bytes: Buffer,
    key = `assets/${t.projectId}/x-${randomBytes(4).toString('hex')}/original.mp4`,
  ): Promise<string> {
    const id = `asset_${randomBytes(12).toString('hex').toUpperCase()}`;
    if (!key.includes('//')) await store.put(key, bytes, { contentType: 'video/mp4' });
    await harness.db.query(
      `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, storage_key, properties)
       VALUES ($1, $2, $3, 'key_x', 'uploaded-video', 'video', 'video/mp4', $4, $5)`,
      [id, t.teamId, t.projectId, key, JSON.stringify({ size: bytes.length, format: 'mp4' })],
    );
    return id;
  }

  /**
   * Asks for a download while the queue table is held, so the test can put the
   * work row in the state it wants (as a crashed worker left it) before the
   * consumer records it (its insert then finds the row and changes nothing).
   */
  async function requestWithRow(assetIds: string[], state: { attempts: number }): Promise<string> {
    return harness.db.transaction(async (query) => {
      await query('LOCK TABLE assets.asset_downloads IN EXCLUSIVE MODE');
      const res = await request(assetIds);
      expect(res.status).toBe(200);
      await query(
        `INSERT INTO assets.asset_downloads (job_id, team_id, project_id, asset_ids, status, attempts, claimed_by, lease_until)
         VALUES ($1, $2, $3, $4, 'running', $5, 'dl_dead', now() - interval '1 second')`,
        [res.body.jobId, t.teamId, t.projectId, assetIds, state.attempts],
      );
      return res.body.jobId as string;
    });
  }

  it('streams a 20 MiB archive through a multipart upload (three 8 MiB parts); every byte survives', async () => {
    const big = randomBytes(11 * MiB);
    const bigger = randomBytes(9 * MiB + 777);
    const image = await uploadImage(harness, t.auth.projectMember);
    const ids = [await storedAsset(big), image.id, await storedAsset(bigger)];
    const done = await finished((await request(ids)).body.jobId);
    expect(done.jobStatus).toBe('success');
    const zip = Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer());
    expect(zip.length).toBeGreaterThan(20 * MiB);
    const entries = await unzip(zip);
    expect(entries.map((e) => e.name)).toEqual([`${ids[0]}.mp4`, `${ids[1]}.png`, `${ids[2]}.mp4`]);
    expect(sha256(entries[0].bytes)).toBe(sha256(big));
    expect(sha256(entries[2].bytes)).toBe(sha256(bigger));
  });

  it('a worker that died holding the claim: once its lease runs out another worker builds the archive', async () => {
    const image = await uploadImage(harness, t.auth.projectMember);
    const jobId = await requestWithRow([image.id], { attempts: 1 });
    const done = await finished(jobId);
    expect(done.jobStatus).toBe('success');
    expect(await row(jobId)).toEqual({ status: 'succeeded', attempts: 2 });
  });

  it('a job whose workers keep dying fails after 3 attempts instead of looping', async () => {
    const image = await uploadImage(harness, t.auth.projectMember);
    const jobId = await requestWithRow([image.id], { attempts: 3 });
    expect(await finished(jobId)).toMatchObject({
      jobStatus: 'failure',
      errorMessage: expect.stringContaining('after 3 attempts'),
    });
    expect((await row(jobId)).status).toBe('failed');
  });

  it('storage failing on every attempt: retried with back-off, then the job fails with a reason', async () => {
    // A key the store refuses to read stands in for storage that keeps failing (not a missing object).
    const id = await storedAsset(Buffer.from('x'), `assets/${t.projectId}//broken.mp4`);
    const res = await request([id]);
    const done = await finished(res.body.jobId);
    expect(done).toMatchObject({
      jobStatus: 'failure',
      errorMessage: expect.stringContaining('storage failed 3 times'),
    });
    expect(await row(res.body.jobId)).toEqual({ status: 'failed', attempts: 3 });
  });
});
