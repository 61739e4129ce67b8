import { TOPICS } from '@genasset/contracts';
import { TopicReader } from '@genasset/testing';
import sharp from 'sharp';
import { dataUrl, jpeg, listObjects, png, startAssetHarness, upload, uploadImage, type ServiceHarness, type Tenant } from './support/asset-fixtures';

const MiB = 1024 * 1024;

async function fetchBytes(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('POST /v1/assets (upload)', () => {
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

  const noObjectsOf = async (tenant: Tenant) => expect(await listObjects(`assets/${tenant.projectId}/`)).toEqual([]);

  it('stores an image from a data URL: sniffed format, sharp-read properties, signed URLs of the rendition and the original', async () => {
    const bytes = await png(64, 48);
    const asset = await upload(harness, t.auth.projectMember, { image: dataUrl(bytes), name: 'photo.png' });
    expect(asset).toMatchObject({
      id: expect.stringMatching(/^asset_[0-9A-Z]{26}$/),
      mimeType: 'image/png',
      kind: 'image',
      source: 'uploaded',
      status: 'success',
      privacy: 'private',
      ownerId: t.projectId,
      authorId: expect.stringMatching(/^key_/),
      tags: [],
      collectionIds: [],
      metadata: { type: 'uploaded', kind: 'image', name: 'photo.png' },
      properties: { width: 64, height: 48, size: bytes.length, format: 'png', hasAlpha: true },
    });
    expect(asset.editCapabilities).toContain('UPSCALE');
    expect(new Date(asset.createdAt).toISOString()).toBe(asset.createdAt);
    // url: the WebP rendition, signed and expiring; originalAssets=true: the bytes as uploaded.
    expect(asset.url).toMatch(/X-Amz-Expires=3600/);
    const served = await fetchBytes(asset.url);
    expect(served.status).toBe(200);
    expect((await sharp(served.bytes).metadata()).format).toBe('webp');
    const original = await harness.request('GET', `/v1/assets/${asset.id}?originalAssets=true`, { auth: t.auth.projectMember });
    const originalBytes = await fetchBytes(original.body.asset.url);
    expect(originalBytes.bytes.equals(bytes)).toBe(true);
    expect(originalBytes.type).toBe('image/png');
    // (Whether an unsigned URL is refused is the bucket's policy; s3rver checks no signature.)
    expect(asset.url).toMatch(/X-Amz-Signature=/);
    const [created] = await facts.waitFor(asset.id, 'asset.created');
    expect(created.envelope.data).toMatchObject({ assetId: asset.id, teamId: t.teamId, projectId: t.projectId, type: 'uploaded', privacy: 'private' });
  });

  it('trusts neither the name nor the declared type: a JPEG sent as data:image/png named .png is a JPEG', async () => {
    const bytes = await jpeg(30, 20);
    const asset = await upload(harness, t.auth.projectMember, { image: dataUrl(bytes, 'image/png'), name: 'fake.png' });
    expect(asset).toMatchObject({ mimeType: 'image/jpeg', properties: { format: 'jpeg', width: 30, height: 20, size: bytes.length } });
  });

  it('accepts bare base64, and uploads above the app-wide 1 MiB body limit', async () => {
    const noisy = await sharp(Buffer.from(Array.from({ length: 700 * 700 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 700, height: 700, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(1.2 * MiB);
    const asset = await upload(harness, t.auth.projectMember, { image: noisy.toString('base64'), name: 'big' });
    expect(asset.properties).toMatchObject({ width: 700, height: 700, size: noisy.length });
  });

  it('uploads a canvas (stringified JSON) with a thumbnail', async () => {
    const canvas = JSON.stringify({ layers: [{ id: 1 }], width: 1024 });
    const thumb = await png(16, 16);
    const asset = await upload(harness, t.auth.projectMember, { canvas, thumbnail: dataUrl(thumb), name: 'board' });
    expect(asset).toMatchObject({
      kind: 'json',
      mimeType: 'application/json',
      source: 'canvas',
      metadata: { type: 'canvas', name: 'board' },
      properties: { size: Buffer.byteLength(canvas), format: 'json' },
      editCapabilities: [],
      thumbnail: { assetId: asset.id, url: expect.any(String) },
    });
    expect((await fetchBytes(asset.url)).bytes.toString()).toBe(canvas);
    expect((await fetchBytes(asset.thumbnail.url)).bytes.equals(thumb)).toBe(true);
  });

  it('links children to their parent and root', async () => {
    const root = await uploadImage(harness, t.auth.projectMember);
    const child = await uploadImage(harness, t.auth.projectMember, { parentId: root.id });
    const grandchild = await uploadImage(harness, t.auth.projectMember, { parentId: child.id });
    expect(child.metadata).toMatchObject({ parentId: root.id, rootParentId: root.id });
    expect(grandchild.metadata).toMatchObject({ parentId: child.id, rootParentId: root.id });
    const [fact] = await facts.waitFor(grandchild.id, 'asset.created');
    expect(fact.envelope.data).toMatchObject({ parentId: child.id, rootParentId: root.id });
  });

  describe('refuses bad input with a status that says what is wrong, and stores nothing', () => {
    let clean: Tenant;
    beforeAll(async () => {
      clean = await harness.tenant();
    });
    afterEach(() => noObjectsOf(clean));

    const post = (body: unknown, auth = clean.auth.projectMember) => harness.request('POST', '/v1/assets', { auth, body });

    it('neither image nor canvas → 400', async () => {
      const res = await post({ name: 'x' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ apiError: 'validation_error', infos: { fields: { image: ['image or canvas is required'] } } });
    });

    it('not base64 → 400 naming the field', async () => {
      const res = await post({ image: 'this is not base64!' });
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.image[0]).toMatch(/data URL or a base64/);
    });

    it('a data URL that is not base64 → 400', async () => {
      const res = await post({ image: 'data:image/png,rawbytes' });
      expect(res.status).toBe(400);
    });

    it('bytes that are no image → 400 invalid_image', async () => {
      const res = await post({ image: Buffer.from('{"hello": "world"}').toString('base64') });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ apiError: 'invalid_image', error: expect.stringMatching(/not a supported image/) });
    });

    it('a truncated image → 400 could not be decoded', async () => {
      const bytes = await png(200, 200);
      const res = await post({ image: bytes.subarray(0, bytes.length - 40).toString('base64') });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/truncated or corrupt|not a supported image/);
    });

    it('an SVG → 400 naming the detected format', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
      const res = await post({ image: svg.toString('base64') });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ apiError: 'invalid_image', infos: { detectedFormat: 'svg' } });
    });

    it('an image over 25 MiB → 413 naming the limit', async () => {
      const res = await post({ image: 'A'.repeat(Math.ceil((26 * MiB * 4) / 3)) });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ apiError: 'payload_too_large', infos: { field: 'image', limit: 25 * MiB } });
      expect(res.body.error).toMatch(/the limit is 25 MiB/);
    });

    it('a body over the upload route limit → 413', async () => {
      const res = await post({ image: 'A'.repeat(41 * MiB) });
      expect(res.status).toBe(413);
    });

    it('a canvas that is not JSON → 400; over 5 MiB → 413', async () => {
      expect((await post({ canvas: '{not json' })).status).toBe(400);
      expect((await post({ canvas: '"a string"' })).status).toBe(400);
      const big = await post({ canvas: JSON.stringify({ data: 'x'.repeat(5 * MiB) }) });
      expect(big.status).toBe(413);
      expect(big.body.error).toMatch(/limit is 5 MiB/);
    });

    it('a thumbnail that is not an image → 400, and the canvas is not stored either', async () => {
      const res = await post({ canvas: '{}', thumbnail: Buffer.from('nope').toString('base64') });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/thumbnail/);
    });

    it('an unknown parent → 404; a parent of another project → 404', async () => {
      const other = await harness.tenant();
      const foreign = await uploadImage(harness, other.auth.projectMember);
      for (const parentId of ['asset_01ABCDEFGHJKMNPQRSTVWXYZ00', foreign.id]) {
        const res = await post({ image: dataUrl(await png()), parentId });
        expect(res.status).toBe(404);
        expect(res.body.error).toMatch(/parent asset/);
      }
    });

    it('wrong types and unknown fields → 400 naming the field', async () => {
      const wrongType = await post({ image: 42 });
      expect(wrongType.status).toBe(400);
      expect(Object.keys(wrongType.body.infos.fields)).toEqual(['image']);
      const unknown = await post({ image: dataUrl(await png()), colour: 'red' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.infos.fields.colour).toBeDefined();
      const badParent = await post({ image: dataUrl(await png()), parentId: 'not-an-id' });
      expect(badParent.body.infos.fields.parentId).toBeDefined();
      const collections = await post({ image: dataUrl(await png()), collectionIds: ['col_1'] });
      expect(collections.status).toBe(400);
      expect(collections.body.error).toMatch(/collections/);
    });

    it.each([
      ['an array', '[1, 2]'],
      ['a string', '"image"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('a body that is %s → 400', async (_label, body) => {
      const res = await harness.request('POST', '/v1/assets', { auth: clean.auth.projectMember, body });
      expect(res.status).toBe(400);
    });

    it('a text/plain body → 415 naming application/json', async () => {
      const res = await harness.request('POST', '/v1/assets', {
        auth: clean.auth.projectMember,
        body: 'image=abc',
        headers: { 'content-type': 'text/plain' },
      });
      expect(res).toMatchObject({
        status: 415,
        body: { apiError: 'unsupported_media_type', infos: { expected: 'application/json', received: 'text/plain' } },
      });
    });

    it('a body that is not JSON → 400 invalid_json', async () => {
      const res = await harness.request('POST', '/v1/assets', { auth: clean.auth.projectMember, body: '{"image": ' });
      expect(res.status).toBe(400);
      expect(res.body.apiError).toBe('invalid_json');
    });
  });

  it('a team-level key must name the project; another team cannot be named', async () => {
    const body = { image: dataUrl(await png()) };
    const missing = await harness.request('POST', '/v1/assets', { auth: t.auth.teamMember, body });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ apiError: 'project_required' });
    const ok = await harness.request('POST', `/v1/assets?projectId=${t.projectId}`, { auth: t.auth.teamMember, body });
    expect(ok.status).toBe(200);
    expect(ok.body.asset.ownerId).toBe(t.projectId);
    const other = await harness.tenant();
    const foreign = await harness.request('POST', `/v1/assets?projectId=${other.projectId}`, { auth: t.auth.teamMember, body });
    expect(foreign.status).toBe(404);
    const projectKeyElsewhere = await harness.request('POST', `/v1/assets?projectId=${other.projectId}`, { auth: t.auth.projectMember, body });
    expect(projectKeyElsewhere.status).toBe(404);
  });
});
