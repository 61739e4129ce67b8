import { TOPICS } from '@genasset/contracts';
import { TopicReader } from '@genasset/testing';
import sharp from 'sharp';
import { dataUrl, listObjects, png, startAssetHarness, upload, uploadCanvas, uploadImage, type ServiceHarness, type Tenant } from './support/asset-fixtures';

describe('tags, copy, single-asset download', () => {
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

  describe('PUT /v1/assets/{assetId}/tags', () => {
    const tags = (id: string, body: unknown, auth = t.auth.projectMember) => harness.request('PUT', `/v1/assets/${id}/tags`, { auth, body });

    it('adds and deletes → {added, deleted}; the asset carries them; asset.updated says so', async () => {
      const asset = await uploadImage(harness, t.auth.projectMember);
      expect((await tags(asset.id, { add: ['sci-fi', 'landscape'] })).body).toEqual({ added: ['sci-fi', 'landscape'], deleted: [] });
      const res = await tags(asset.id, { add: ['night'], delete: ['sci-fi'] });
      expect(res).toMatchObject({ status: 200, body: { added: ['night'], deleted: ['sci-fi'] } });
      const got = await harness.request('GET', `/v1/assets/${asset.id}`, { auth: t.auth.projectMember });
      expect(got.body.asset.tags).toEqual(['landscape', 'night']);
      const updates = await facts.waitFor(asset.id, 'asset.updated', 2);
      expect(updates[1].envelope.data.tags).toEqual(['landscape', 'night']);
    });

    it('strict (the default): adding a present tag or deleting an absent one → 409, nothing changed; strict=false is idempotent', async () => {
      const asset = await uploadImage(harness, t.auth.projectMember);
      await tags(asset.id, { add: ['a'] });
      const dup = await tags(asset.id, { add: ['a', 'b'] });
      expect(dup).toMatchObject({ status: 409, body: { apiError: 'tag_exists', infos: { tags: ['a'] } } });
      const absent = await tags(asset.id, { delete: ['zzz'] });
      expect(absent).toMatchObject({ status: 409, body: { apiError: 'tag_not_found' } });
      expect((await harness.request('GET', `/v1/assets/${asset.id}`, { auth: t.auth.projectMember })).body.asset.tags).toEqual(['a']);
      expect((await tags(asset.id, { add: ['a', 'b'], delete: ['zzz'], strict: false })).body).toEqual({ added: ['b'], deleted: [] });
    });

    it('concurrent tag edits lose nothing', async () => {
      const asset = await uploadImage(harness, t.auth.projectMember);
      await Promise.all(Array.from({ length: 8 }, (_, i) => tags(asset.id, { add: [`t${i}`] })));
      const got = await harness.request('GET', `/v1/assets/${asset.id}`, { auth: t.auth.projectMember });
      expect([...got.body.asset.tags].sort()).toEqual(Array.from({ length: 8 }, (_, i) => `t${i}`));
    });

    it.each([
      ['nothing to do', {}],
      ['add not an array', { add: 'a' }],
      ['a tag with a comma', { add: ['a,b'] }],
      ['an empty tag', { add: [''] }],
      ['a tag of 65 characters', { add: ['x'.repeat(65)] }],
      ['the same tag added and deleted', { add: ['a'], delete: ['a'] }],
      ['strict as a string', { add: ['a'], strict: 'no' }],
    ])('refuses %s → 400', async (_label, body) => {
      const asset = await uploadImage(harness, t.auth.projectMember);
      expect((await tags(asset.id, body)).status).toBe(400);
    });
  });

  describe('POST /v1/assets/{assetId}/copy', () => {
    it('duplicates bytes, type, properties and tags into a new private asset that records its original', async () => {
      const source = await uploadImage(harness, t.auth.projectMember, { name: 'orig.png' });
      await harness.request('PUT', `/v1/assets/${source.id}/tags`, { auth: t.auth.projectMember, body: { add: ['keep'] } });
      await harness.request('PUT', `/v1/assets/${source.id}`, { auth: t.auth.projectMember, body: { privacy: 'public' } });
      const res = await harness.request('POST', `/v1/assets/${source.id}/copy?originalAssets=true`, { auth: t.auth.projectMember, body: {} });
      expect(res.status).toBe(200);
      const copy = res.body.asset;
      expect(copy.id).not.toBe(source.id);
      expect(copy).toMatchObject({
        ownerId: t.projectId,
        privacy: 'private',
        tags: ['keep'],
        mimeType: source.mimeType,
        properties: source.properties,
        metadata: { type: 'uploaded', name: 'orig.png', originalAssetId: source.id, copiedAt: expect.any(String) },
      });
      const [a, b] = await Promise.all([fetch(copy.url).then((r) => r.arrayBuffer()), fetch((await harness.request('GET', `/v1/assets/${source.id}?originalAssets=true`, { auth: t.auth.projectMember })).body.asset.url).then((r) => r.arrayBuffer())]);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
      await facts.waitFor(copy.id, 'asset.created');
      // Deleting the source leaves the copy whole.
      await harness.request('DELETE', '/v1/assets', { auth: t.auth.projectMember, body: { assetIds: [source.id] } });
      expect((await fetch(copy.url)).status).toBe(200);
    });

    it('copies a canvas with its thumbnail', async () => {
      const canvas = await upload(harness, t.auth.projectMember, { canvas: '{"c":1}', thumbnail: dataUrl(await png(4, 4)) });
      const copy = (await harness.request('POST', `/v1/assets/${canvas.id}/copy`, { auth: t.auth.projectMember, body: {} })).body.asset;
      expect(copy).toMatchObject({ kind: 'json', metadata: { type: 'canvas', originalAssetId: canvas.id } });
      expect(await (await fetch(copy.url)).text()).toBe('{"c":1}');
      expect((await fetch(copy.thumbnail.url)).status).toBe(200);
      expect(await listObjects(`assets/${t.projectId}/${copy.id}/`)).toHaveLength(2);
    });

    it('copies into another project of the team with a team key; never into another team', async () => {
      const source = await uploadImage(harness, t.auth.projectMember);
      const project2 = (await harness.request('POST', `/admin/v1/teams/${t.teamId}/projects`, { auth: `Bearer ${harness.adminToken}`, body: { name: 'second' } })).body.project;
      const res = await harness.request('POST', `/v1/assets/${source.id}/copy?projectId=${t.projectId}`, {
        auth: t.auth.teamMember,
        body: { targetProjectId: project2.id },
      });
      expect(res.status).toBe(200);
      expect(res.body.asset.ownerId).toBe(project2.id);
      expect(await listObjects(`assets/${project2.id}/${res.body.asset.id}/`)).not.toEqual([]);
      // A project key reaches its own project only.
      expect((await harness.request('POST', `/v1/assets/${source.id}/copy`, { auth: t.auth.projectMember, body: { targetProjectId: project2.id } })).status).toBe(404);
      const other = await harness.tenant();
      expect((await harness.request('POST', `/v1/assets/${source.id}/copy?projectId=${t.projectId}`, { auth: t.auth.teamMember, body: { targetProjectId: other.projectId } })).status).toBe(404);
      expect((await harness.request('POST', `/v1/assets/${source.id}/copy`, { auth: t.auth.projectMember, body: { targetProjectId: 'bad id' } })).status).toBe(400);
    });
  });

  describe('POST /v1/assets/{assetId}/download', () => {
    const download = (id: string, body: unknown, auth = t.auth.projectMember) => harness.request('POST', `/v1/assets/${id}/download`, { auth, body });

    it.each([
      ['png', 'png', 'image/png'],
      ['jpeg', 'jpeg', 'image/jpeg'],
      ['jpg', 'jpeg', 'image/jpeg'],
      ['webp', 'webp', 'image/webp'],
      ['avif', 'heif', 'image/avif'],
      ['tiff', 'tiff', 'image/tiff'],
      ['gif', 'gif', 'image/gif'],
    ])('converts to %s with sharp behind a time-limited attachment URL', async (targetFormat, sharpFormat, mimeType) => {
      const source = await uploadImage(harness, t.auth.projectMember);
      const res = await download(source.id, { targetFormat });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ targetFormat, mimeType, size: expect.any(Number), expiresAt: expect.any(String), url: expect.stringMatching(/X-Amz-Expires=3600/) });
      expect(new Date(res.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(3500_000);
      const file = await fetch(res.body.url);
      expect(file.headers.get('content-disposition')).toContain(`${source.id}.`);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.length).toBe(res.body.size);
      const metadata = await sharp(bytes).metadata();
      expect(metadata).toMatchObject({ format: sharpFormat, width: 64, height: 48 });
    });

    it('serves the original when it already has the format, and reuses a conversion', async () => {
      const source = await uploadImage(harness, t.auth.projectMember);
      const same = await download(source.id, { targetFormat: 'png' });
      expect(same.body.url).toMatch(/original-/);
      const first = await download(source.id, { targetFormat: 'webp' });
      const second = await download(source.id, { targetFormat: 'webp' });
      expect(second.body.size).toBe(first.body.size);
      expect(await listObjects(`assets/${t.projectId}/${source.id}/download.webp`)).toHaveLength(1);
    });

    it('unknown targetFormat → 400 listing the formats; a canvas → 400; unknown asset → 404', async () => {
      const source = await uploadImage(harness, t.auth.projectMember);
      const unknown = await download(source.id, { targetFormat: 'bmp' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.infos.fields.targetFormat[0]).toMatch(/png, jpeg, jpg, webp, avif, tiff, gif/);
      expect((await download(source.id, {})).status).toBe(400);
      expect((await download(source.id, { targetFormat: 5 })).status).toBe(400);
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      expect((await download(canvas.id, { targetFormat: 'png' })).body.apiError).toBe('not_convertible');
      expect((await download('asset_01ABCDEFGHJKMNPQRSTVWXYZ00', { targetFormat: 'png' })).status).toBe(404);
    });
  });
});
