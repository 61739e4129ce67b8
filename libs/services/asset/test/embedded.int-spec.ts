import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedServiceEnv, freePort, seedEmbeddedDataDir } from '@genasset/testing';
import { dataUrl, png, startAssetHarness, type ServiceHarness } from './support/asset-fixtures';

/**
 * Embedded mode (PGlite, in-process events, filesystem object store): the
 * same routes on the other adapters, raw SQL and signed file URLs included.
 * Empty variables count as unset, so the harness's PostgreSQL, broker and S3
 * settings are switched off here.
 */
describe('asset-service in embedded mode', () => {
  let dataDir: string;
  let harness: ServiceHarness;
  let auth: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'asset-embedded-'));
    await seedEmbeddedDataDir(dataDir);
    const port = await freePort();
    harness = await startAssetHarness(embeddedServiceEnv(dataDir, port));
    auth = (await harness.tenant()).auth.projectMember;
  });

  afterAll(async () => {
    await harness?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await harness.request(method, path, { auth, body });
    return { status: res.status, body: res.body as Record<string, any> };
  };

  it('/readyz says image similarity runs on the pgvector HNSW index (PGlite loads pgvector)', async () => {
    const ready = await harness.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ checks: { search: 'ok' }, details: { search: expect.stringMatching(/^pgvector hnsw \(pgvector 0\.\d+\.\d+\)$/) } });
  });

  it('searches on PGlite: full text (generated tsvector), similar images by id and data URL (HNSW index), hybrid', async () => {
    const bytes = await png(16, 16);
    const asset = (await call('POST', '/v1/assets', { image: dataUrl(bytes), name: 'Searchable lighthouse.png' })).body.asset;
    const text = await call('POST', '/v1/search/assets', { query: 'lighthouses', filter: 'type = uploaded' });
    expect(text.status).toBe(200);
    expect(text.body.hits.map((h: { id: string }) => h.id)).toEqual([asset.id]);
    const byId = await call('POST', '/v1/search/assets', { image: asset.id, page: 1, hitsPerPage: 5 });
    expect(byId.body.hits[0]).toMatchObject({ id: asset.id });
    expect(byId.body.hits[0].score).toBeCloseTo(1, 4);
    expect(byId.body).toMatchObject({ page: 1, hitsPerPage: 5 });
    const byData = await call('POST', '/v1/search/assets', { query: 'lighthouse', images: { like: [dataUrl(bytes)] }, imageSemanticRatio: 0.5 });
    expect(byData.body.hits[0]).toMatchObject({ id: asset.id });
    await call('DELETE', '/v1/assets', { assetIds: [asset.id] });
  });

  it('uploads, lists, converts, locks, updates, tags and deletes', async () => {
    const bytes = await png(20, 10);
    const uploaded = await call('POST', '/v1/assets', { image: dataUrl(bytes) });
    expect(uploaded.status).toBe(200);
    const asset = uploaded.body.asset;
    const original = await call('GET', `/v1/assets/${asset.id}?originalAssets=true`);
    // Served by the filesystem store's signed route, and the row is in PGlite, not the harness's PostgreSQL.
    expect(original.body.asset.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/files\/assets\/.*&signature=/);
    expect((await harness.db.query('SELECT count(*)::int AS n FROM assets.assets'))[0].n).toBe(0);
    const file = await fetch(original.body.asset.url);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);

    const list = await call('GET', '/v1/assets?pageSize=1&types=uploaded,canvas');
    expect(list.body.assets.map((a: { id: string }) => a.id)).toEqual([asset.id]);
    expect((await call('PUT', `/v1/assets/${asset.id}/tags`, { add: ['a', 'b'] })).body).toEqual({ added: ['a', 'b'], deleted: [] });
    expect((await call('POST', `/v1/assets/${asset.id}/download`, { targetFormat: 'jpeg' })).status).toBe(200);

    const canvas = (await call('POST', '/v1/assets', { canvas: '{"v":1}' })).body.asset;
    const { lockId } = (await call('PUT', `/v1/assets/${canvas.id}/lock`, {})).body;
    expect((await call('PUT', `/v1/assets/${canvas.id}`, { canvas: '{"v":2}' })).status).toBe(409);
    expect((await call('PUT', `/v1/assets/${canvas.id}`, { canvas: '{"v":2}', lockId })).status).toBe(200);
    expect((await call('GET', `/v1/assets/${canvas.id}/snapshots`)).body.snapshots).toHaveLength(1);

    expect((await call('DELETE', '/v1/assets', { assetIds: [asset.id, canvas.id] })).status).toBe(200);
    expect((await fetch(original.body.asset.url)).status).toBe(404);
    expect((await call('GET', '/v1/assets')).body.assets).toEqual([]);
  });
});
