import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '@genasset/testing';
import { startDownloadHarness, sha256, unzip } from './support/archive-fixtures';
import { dataUrl, png, type ServiceHarness } from './support/asset-fixtures';

/**
 * Embedded mode (PGlite, in-process events, filesystem object store): batch
 * downloads work the same, the archive served by the signed files route.
 * Multipart uploads need S3: POST /v1/uploads answers 501 with what to do instead.
 */
describe('batch downloads and uploads in embedded mode', () => {
  let dataDir: string;
  let harness: ServiceHarness;
  let auth: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'asset-downloads-embedded-'));
    const port = await freePort();
    harness = await startDownloadHarness(
      {
        DATABASE_URL: '',
        KAFKA_BROKERS: '',
        S3_BUCKET: '',
        S3_ENDPOINT: '',
        DATA_DIR: dataDir,
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      },
      'in-process',
    );
    auth = (await harness.tenant()).auth.projectMember;
  });
  afterAll(async () => {
    await harness?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds the archive and serves it from the files route', async () => {
    const images = [await png(10, 10, '#ff0000'), await png(12, 9, '#00ff00')];
    const ids: string[] = [];
    for (const image of images)
      ids.push(
        (await harness.request('POST', '/v1/assets', { auth, body: { image: dataUrl(image) } })).body.asset
          .id,
      );
    const res = await harness.request('POST', '/v1/assets/download', {
      auth,
      body: { query: { assetIds: ids, inferenceIds: [], modelIds: [] }, options: { fileNameTemplate: '' } },
    });
    expect(res.status).toBe(200);
    const done = await waitFor(
      async () => {
        const s = await harness.request('GET', `/v1/assets/download/${res.body.jobId}`, { auth });
        return s.body.jobStatus === 'success' ? s.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'embedded download' },
    );
    expect(done.downloadUrl).toContain('/v1/files/downloads/');
    const zip = await fetch(done.downloadUrl);
    expect(zip.status).toBe(200);
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual(ids.map((id) => `${id}.png`));
    expect(entries.map((e) => sha256(e.bytes))).toEqual(images.map(sha256));
  });

  it('POST /v1/uploads → 501 saying multipart uploads need S3', async () => {
    const res = await harness.request('POST', '/v1/uploads', {
      auth,
      body: { fileName: 'a.mp4', fileSize: 100, contentType: 'video/mp4', kind: 'video' },
    });
    expect(res).toMatchObject({
      status: 501,
      body: { apiError: 'not_implemented', error: expect.stringContaining('S3') },
    });
  });
});
