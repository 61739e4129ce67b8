import { TOPICS } from '@genasset/contracts';
import { TopicReader } from '@genasset/testing';
import { listObjects, setColumns, startAssetHarness, upload, uploadCanvas, uploadImage, png, dataUrl, type ServiceHarness, type Tenant } from './support/asset-fixtures';

const PUBLIC_TOKEN = 'public-auth-token';

describe('asset details, get-bulk and deletion', () => {
  let harness: ServiceHarness;
  let t: Tenant;
  let facts: TopicReader;

  beforeAll(async () => {
    harness = await startAssetHarness();
    facts = await new TopicReader(TOPICS.assetEvents).start();
    t = await harness.tenant();
  });
  afterAll(async () => {
    await facts?.stop();
    await harness?.close();
  });

  describe('GET /v1/assets/{assetId}', () => {
    it('returns the asset; withEmbedding adds the stored embedding', async () => {
      const asset = await uploadImage(harness, t.auth.projectMember);
      const plain = await harness.request('GET', `/v1/assets/${asset.id}`, { auth: t.auth.projectMember });
      expect(plain.status).toBe(200);
      expect(plain.body.asset).toMatchObject({ id: asset.id, mimeType: 'image/png' });
      expect(plain.body.asset.embedding).toBeUndefined();
      // An upload gets the built-in image embedding when it is created.
      const computed = (await harness.request('GET', `/v1/assets/${asset.id}?withEmbedding=true`, { auth: t.auth.projectMember })).body.asset.embedding;
      expect(computed).toHaveLength(1024);
      expect(Math.hypot(...computed)).toBeCloseTo(1, 3);
      // What is stored is what is returned.
      await setColumns(harness, asset.id, `embedding = $2::real[]`, [[0.25, -1.5, 3]]);
      const withEmbedding = await harness.request('GET', `/v1/assets/${asset.id}?withEmbedding=true`, { auth: t.auth.projectMember });
      expect(withEmbedding.body.asset.embedding).toEqual([0.25, -1.5, 3]);
      expect((await harness.request('GET', `/v1/assets/${asset.id}`, { auth: t.auth.projectMember })).body.asset.embedding).toBeUndefined();
    });

    it('originalAssets switches url between the web rendition and the original', async () => {
      const asset = await uploadImage(harness, t.auth.projectMember);
      const web = (await harness.request('GET', `/v1/assets/${asset.id}`, { auth: t.auth.projectMember })).body.asset.url;
      const original = (await harness.request('GET', `/v1/assets/${asset.id}?originalAssets=true`, { auth: t.auth.projectMember })).body.asset.url;
      expect(web).toMatch(/\/web-[^/]+\.webp\?/);
      expect(original).toMatch(/\/original-[^/]+\.png\?/);
      expect((await harness.request('GET', `/v1/assets/${asset.id}?originalAssets=yes`, { auth: t.auth.projectMember })).status).toBe(400);
    });

    it('malformed id → 400, unknown id → 404', async () => {
      const bad = await harness.request('GET', '/v1/assets/not-an-id', { auth: t.auth.projectMember });
      expect(bad.status).toBe(400);
      expect(bad.body.infos.fields.assetId).toBeDefined();
      const missing = await harness.request('GET', '/v1/assets/asset_01ABCDEFGHJKMNPQRSTVWXYZ00', { auth: t.auth.projectMember });
      expect(missing).toMatchObject({ status: 404, body: { apiError: 'not_found' } });
    });

    it('public access (header or deprecated route) shows public and unlisted assets only', async () => {
      const [priv, pub, unlisted] = [await uploadImage(harness, t.auth.projectMember), await uploadImage(harness, t.auth.projectMember), await uploadImage(harness, t.auth.projectMember)];
      await setColumns(harness, pub.id, `privacy = 'public'`);
      await setColumns(harness, unlisted.id, `privacy = 'unlisted'`);
      expect((await harness.request('GET', `/v1/assets/${priv.id}`, { auth: PUBLIC_TOKEN })).status).toBe(404);
      expect((await harness.request('GET', `/v1/assets/${pub.id}`, { auth: PUBLIC_TOKEN })).body.asset).toMatchObject({ id: pub.id, privacy: 'public' });
      expect((await harness.request('GET', `/v1/assets/${unlisted.id}`, { auth: PUBLIC_TOKEN })).status).toBe(200);
      expect((await harness.request('GET', `/v1/assets/public/${priv.id}`)).status).toBe(404);
      expect((await harness.request('GET', `/v1/assets/public/${pub.id}`)).body.asset.id).toBe(pub.id);
      expect((await harness.request('GET', `/v1/assets/public/bad`)).status).toBe(400);
      // Another organisation's key reads a published asset too, never a private one.
      const other = await harness.tenant();
      expect((await harness.request('GET', `/v1/assets/${pub.id}`, { auth: other.auth.projectMember })).status).toBe(200);
      expect((await harness.request('GET', `/v1/assets/${priv.id}`, { auth: other.auth.projectMember })).status).toBe(404);
    });

    it('missing or wrong credentials → 401', async () => {
      const asset = await uploadImage(harness, t.auth.projectMember);
      expect((await harness.request('GET', `/v1/assets/${asset.id}`)).status).toBe(401);
      expect((await harness.request('GET', `/v1/assets/${asset.id}`, { auth: 'Basic Zm9vOmJhcg==' })).status).toBe(401);
      expect((await harness.request('GET', `/v1/assets`)).status).toBe(401);
    });
  });

  describe('POST /v1/assets/get-bulk', () => {
    it('returns the readable assets in request order; unknown and foreign ids are left out', async () => {
      const [a, b] = [await uploadImage(harness, t.auth.projectMember), await uploadCanvas(harness, t.auth.projectMember)];
      const other = await harness.tenant();
      const foreign = await uploadImage(harness, other.auth.projectMember);
      const res = await harness.request('POST', '/v1/assets/get-bulk', {
        auth: t.auth.projectMember,
        body: { assetIds: [b.id, foreign.id, 'asset_01ABCDEFGHJKMNPQRSTVWXYZ00', a.id, b.id] },
      });
      expect(res.status).toBe(200);
      expect(res.body.assets.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    });

    it.each([
      ['an empty list', { assetIds: [] }],
      ['a string', { assetIds: 'asset_1' }],
      ['a malformed id', { assetIds: ['bad id'] }],
      ['201 ids', { assetIds: Array.from({ length: 201 }, (_, i) => `asset_${i}`) }],
      ['no assetIds', {}],
    ])('refuses %s → 400 naming assetIds', async (_label, body) => {
      const res = await harness.request('POST', '/v1/assets/get-bulk', { auth: t.auth.projectMember, body });
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.assetIds).toBeDefined();
    });
  });

  describe('DELETE /v1/assets', () => {
    it('deletes rows, snapshots and objects, and publishes asset.deleted per asset', async () => {
      const tenant = await harness.tenant();
      const image = await uploadImage(harness, tenant.auth.projectMember);
      const canvas = await upload(harness, tenant.auth.projectMember, { canvas: '{"a":1}', thumbnail: dataUrl(await png(8, 8)) });
      await harness.request('PUT', `/v1/assets/${canvas.id}`, { auth: tenant.auth.projectMember, body: { canvas: '{"a":2}' } });
      const download = await harness.request('POST', `/v1/assets/${image.id}/download`, { auth: tenant.auth.projectMember, body: { targetFormat: 'jpeg' } });
      expect(download.status).toBe(200);
      expect((await listObjects(`assets/${tenant.projectId}/`)).length).toBeGreaterThanOrEqual(5);

      const res = await harness.request('DELETE', '/v1/assets', { auth: tenant.auth.projectMember, body: { assetIds: [image.id, canvas.id] } });
      expect(res).toMatchObject({ status: 200, body: {} });
      expect((await harness.request('GET', `/v1/assets/${image.id}`, { auth: tenant.auth.projectMember })).status).toBe(404);
      expect(await listObjects(`assets/${tenant.projectId}/`)).toEqual([]);
      const snapshots = await harness.db.query(`SELECT count(*)::int AS n FROM assets.asset_snapshots WHERE asset_id = $1`, [canvas.id]);
      expect(snapshots[0].n).toBe(0);
      const cleanup = await harness.db.query(`SELECT count(*)::int AS n FROM assets.object_cleanup WHERE object_key LIKE $1`, [`assets/${tenant.projectId}/%`]);
      expect(cleanup[0].n).toBe(0);
      for (const id of [image.id, canvas.id]) {
        const [fact] = await facts.waitFor(id, 'asset.deleted');
        expect(fact.envelope.data).toMatchObject({ assetId: id, projectId: tenant.projectId });
      }
    });

    it('is all or nothing: an unknown or foreign id → 404 naming it, nothing deleted', async () => {
      const mine = await uploadImage(harness, t.auth.projectMember);
      const other = await harness.tenant();
      const foreign = await uploadImage(harness, other.auth.projectMember);
      const res = await harness.request('DELETE', '/v1/assets', { auth: t.auth.projectMember, body: { assetIds: [mine.id, foreign.id] } });
      expect(res.status).toBe(404);
      expect(res.body.infos.assetIds).toEqual([foreign.id]);
      expect((await harness.request('GET', `/v1/assets/${mine.id}`, { auth: t.auth.projectMember })).status).toBe(200);
      expect((await harness.request('GET', `/v1/assets/${foreign.id}`, { auth: other.auth.projectMember })).status).toBe(200);
    });

    it('refuses more than 100 ids, an empty list and malformed ids', async () => {
      for (const assetIds of [[], Array.from({ length: 101 }, (_, i) => `asset_${i}`), ['x']]) {
        expect((await harness.request('DELETE', '/v1/assets', { auth: t.auth.projectMember, body: { assetIds } })).status).toBe(400);
      }
    });
  });

  it('documents every asset route in the OpenAPI document; all but the deprecated public ones declare Authorizer', async () => {
    const doc = (await harness.request('GET', '/v1/openapi.json')).body;
    const expected: [string, string][] = [
      ['get', '/v1/assets'],
      ['post', '/v1/assets'],
      ['delete', '/v1/assets'],
      ['post', '/v1/assets/get-bulk'],
      ['get', '/v1/assets/public'],
      ['get', '/v1/assets/public/{assetId}'],
      ['get', '/v1/assets/{assetId}'],
      ['put', '/v1/assets/{assetId}'],
      ['post', '/v1/assets/{assetId}/copy'],
      ['post', '/v1/assets/{assetId}/download'],
      ['put', '/v1/assets/{assetId}/lock'],
      ['put', '/v1/assets/{assetId}/unlock'],
      ['get', '/v1/assets/{assetId}/snapshots'],
      ['put', '/v1/assets/{assetId}/tags'],
    ];
    for (const [method, path] of expected) {
      const operation = doc.paths[path]?.[method];
      expect({ path, method, documented: !!operation }).toEqual({ path, method, documented: true });
      const secured = (operation.security ?? []).some((s: Record<string, unknown>) => 'Authorizer' in s);
      expect({ path, method, secured }).toEqual({ path, method, secured: !path.startsWith('/v1/assets/public') });
    }
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal'))).toBe(false);
  });

  describe('the storage cleanup queue', () => {
    it('a crash between the object write and the row leaves a pending cleanup the sweeper acts on', async () => {
      // What StoredObjects.put leaves behind if the process dies before the row commits.
      const key = `assets/${t.projectId}/asset_orphan/original-x.png`;
      const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({
        endpoint: process.env.S3_ENDPOINT,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: process.env.S3_ACCESS_KEY_ID!, secretAccessKey: process.env.S3_SECRET_ACCESS_KEY! },
      });
      await client.send(new PutObjectCommand({ Bucket: process.env.S3_BUCKET, Key: key, Body: 'x' }));
      client.destroy();
      await harness.db.query(`INSERT INTO assets.object_cleanup (object_key, due_at) VALUES ($1, now() - interval '1 second')`, [key]);
      // The sweeper runs every minute; the internal route runs one pass now.
      const res = await harness.request('POST', '/internal/v1/assets/cleanup', { headers: { authorization: 'Bearer internal-test-token-0123456789' } });
      expect(res.status).toBe(200);
      expect(res.body.deleted).toBeGreaterThanOrEqual(1);
      expect(await listObjects(`assets/${t.projectId}/asset_orphan/`)).toEqual([]);
    });
  });
});
