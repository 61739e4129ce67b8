import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedServiceEnv, freePort, waitFor, seedEmbeddedDataDir } from '@genasset/testing';
import { startDownloadHarness, sha256, unzip } from './support/archive-fixtures';
import { dataUrl, png, type ServiceHarness } from './support/asset-fixtures';

/**
 * Embedded mode (PGlite, in-process events, filesystem object store): batch
 * downloads work the same, the archive served by the signed files route, and
 * multipart uploads take their parts on that route (signed PUT URLs).
 */
describe('batch downloads and uploads in embedded mode', () => {
  let dataDir: string;
  let harness: ServiceHarness;
  let auth: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'asset-downloads-embedded-'));
    await seedEmbeddedDataDir(dataDir);
    const port = await freePort();
    harness = await startDownloadHarness(
      embeddedServiceEnv(dataDir, port),
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

  it("a multipart upload: parts PUT with plain HTTP to the returned URLs, completed with upstream's body alone, imported with the exact bytes", async () => {
    const MiB = 1024 * 1024;
    const bytes = Buffer.concat([
      Buffer.from([0, 0, 0, 0x20]),
      Buffer.from('ftypisom\0\0\0\0isomiso2mp41', 'latin1'),
      randomBytes(11 * MiB),
    ]);
    const created = await harness.request('POST', '/v1/uploads', {
      auth,
      body: {
        fileName: 'clip.mp4',
        fileSize: bytes.length,
        contentType: 'video/mp4',
        kind: 'video',
        parts: 2,
      },
    });
    expect(created.status).toBe(200);
    const upload = created.body.upload;
    expect(upload.parts.map((p: { url: string }) => new URL(p.url).pathname)).toEqual([
      expect.stringMatching(/^\/v1\/files\/assets\//),
      expect.stringMatching(/^\/v1\/files\/assets\//),
    ]);
    for (const part of upload.parts) {
      const chunk = bytes.subarray((part.number - 1) * upload.partSize, part.number * upload.partSize);
      // No credentials: the signed URL is the only one.
      const res = await fetch(part.url, { method: 'PUT', body: chunk });
      expect({ status: res.status, etag: res.headers.get('etag') }).toEqual({
        status: 200,
        etag: `"${createHash('md5').update(chunk).digest('hex')}"`,
      });
    }
    const done = await harness.request('POST', `/v1/uploads/${upload.id}/action`, {
      auth,
      body: { action: 'complete' },
    });
    expect(done.status).toBe(200);
    const imported = await waitFor(
      async () => {
        const s = (await harness.request('GET', `/v1/uploads/${upload.id}`, { auth })).body.upload;
        return s.status === 'imported' || s.status === 'failed' ? s : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'embedded upload import' },
    );
    expect(imported).toMatchObject({ status: 'imported', entityId: expect.stringMatching(/^asset_/) });
    const asset = (
      await harness.request('GET', `/v1/assets/${imported.entityId}?originalAssets=true`, { auth })
    ).body.asset;
    expect(asset).toMatchObject({
      kind: 'video',
      mimeType: 'video/mp4',
      properties: { size: bytes.length, format: 'mp4' },
    });
    const served = await fetch(asset.url);
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(bytes));
    // Nothing of the upload is left beside the asset's own object.
    expect(readdirSync(join(dataDir, 'objects', '.multipart'))).toEqual([]);
  });
});
