import { randomBytes } from 'node:crypto';
import { TOPICS } from '@genasset/contracts';
import { TopicReader, waitFor } from '@genasset/testing';
import { sha256 } from './support/archive-fixtures';
import {
  png,
  startAssetHarnessOn,
  STORES,
  uploadImage,
  type Json,
  type ServiceHarness,
  type StoreHarness,
  type Tenant,
} from './support/asset-fixtures';

const MiB = 1024 * 1024;

/** Files with real magic bytes and random bodies (the importer reads the head; sizes are exact). */
const files = {
  mp4: (size: number) =>
    Buffer.concat([
      Buffer.from([0, 0, 0, 0x20]),
      Buffer.from('ftypisom\0\0\0\0isomiso2mp41', 'latin1'),
      randomBytes(size - 28),
    ]),
  mp3: (size: number) =>
    Buffer.concat([Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1'), randomBytes(size - 10)]),
  glb: (size: number) => Buffer.concat([Buffer.from('glTF\x02\0\0\0', 'latin1'), randomBytes(size - 8)]),
  html: () => Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
};

/**
 * The upstream /v1/uploads flow on both object stores, with the same cases:
 * the test S3 server (s3rver, with the multipart checks of
 * scripts/lib/s3rver-multipart.mjs) and the filesystem store of embedded mode
 * (parts PUT to its files route). Signed part URLs, real multipart PUTs from
 * the client with plain fetch, completion with upstream's body alone (the
 * server lists the parts) or with ETags, then the import (content sniffed)
 * into an asset. s3rver checks no SigV4 signatures.
 */
describe.each(STORES)('uploads on the %s store', (store) => {
  let stores: StoreHarness;
  let harness: ServiceHarness;
  let t: Tenant;
  let facts: TopicReader;

  beforeAll(async () => {
    stores = await startAssetHarnessOn(store, { ASSET_UPLOAD_POLL_INTERVAL: '200ms' });
    harness = stores.harness;
    facts = await new TopicReader(TOPICS.assetEvents).start();
    t = await harness.tenant();
  });
  afterAll(async () => {
    await facts?.stop();
    await stores?.close();
  });

  const create = (body: Record<string, unknown>, auth = t.auth.projectMember) =>
    harness.request('POST', '/v1/uploads', { auth, body });
  const get = (id: string, auth = t.auth.projectMember) =>
    harness.request('GET', `/v1/uploads/${id}`, { auth });
  const action = (id: string, body: unknown, auth = t.auth.projectMember) =>
    harness.request('POST', `/v1/uploads/${id}/action`, { auth, body });
  const uploadCount = async () =>
    Number(
      (
        await harness.db.query<{ n: string }>(
          'SELECT count(*)::text AS n FROM assets.uploads WHERE project_id = $1',
          [t.projectId],
        )
      )[0].n,
    );

  /** PUTs parts to their signed URLs as a client does (all by default); returns the parts list for `complete`. */
  async function putParts(
    upload: Json,
    bytes: Buffer,
    numbers?: number[],
  ): Promise<{ partNumber: number; etag: string }[]> {
    const parts: { partNumber: number; etag: string }[] = [];
    for (const part of upload.parts) {
      if (numbers && !numbers.includes(part.number)) continue;
      const chunk = bytes.subarray((part.number - 1) * upload.partSize, part.number * upload.partSize);
      const res = await fetch(part.url, { method: 'PUT', body: chunk });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      parts.push({ partNumber: part.number, etag: res.headers.get('etag')! });
    }
    return parts;
  }

  const settled = (id: string) =>
    waitFor(
      async () => {
        const res = await get(id);
        return ['imported', 'failed'].includes(res.body.upload.status)
          ? (res.body.upload as Json)
          : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: `upload ${id} to settle` },
    );

  /** The whole client flow, completed with upstream's body alone; returns the settled upload. */
  async function uploadFile(bytes: Buffer, body: Record<string, unknown>): Promise<Json> {
    const res = await create({ fileSize: bytes.length, ...body });
    expect(res.status).toBe(200);
    await putParts(res.body.upload, bytes);
    const done = await action(res.body.upload.id, { action: 'complete' });
    expect(done.status).toBe(200);
    expect(['validating', 'imported', 'failed']).toContain(done.body.upload.status);
    return settled(res.body.upload.id);
  }

  it('a 12 MiB video in 2 parts: signed part URLs, completion with the ETags, import as uploaded-video with the exact bytes', async () => {
    const bytes = files.mp4(12 * MiB + 12345);
    const res = await create({
      fileName: 'walk cycle.mp4',
      fileSize: bytes.length,
      contentType: 'video/mp4',
      kind: 'video',
      parts: 2,
    });
    expect(res.status).toBe(200);
    const upload = res.body.upload;
    expect(upload).toMatchObject({
      id: expect.stringMatching(/^upload_/),
      fileName: 'walk cycle.mp4',
      originalFileName: 'walk cycle.mp4',
      fileSize: bytes.length,
      partsCount: 2,
      partSize: Math.ceil(bytes.length / 2),
      kind: 'video',
      source: 'multipart',
      status: 'pending',
      ownerId: t.projectId,
      contentType: 'video/mp4',
    });
    expect(upload.parts).toHaveLength(2);
    expect(upload.parts[0]).toMatchObject({
      number: 1,
      url: expect.stringContaining('partNumber=1'),
      expires: expect.any(String),
    });
    expect(upload.entityId).toBeUndefined();

    // GET while pending signs fresh part URLs.
    const again = await get(upload.id);
    expect(again.body.upload.parts).toHaveLength(2);

    const parts = await putParts(upload, bytes);
    const done = await action(upload.id, { action: 'complete', parts: [...parts].reverse() });
    expect(done.status).toBe(200);
    expect(done.body.upload.parts).toBeUndefined();
    const imported = await settled(upload.id);
    expect(imported).toMatchObject({ status: 'imported', entityId: expect.stringMatching(/^asset_/) });

    const asset = (
      await harness.request('GET', `/v1/assets/${imported.entityId}?originalAssets=true`, {
        auth: t.auth.projectMember,
      })
    ).body.asset;
    expect(asset).toMatchObject({
      kind: 'video',
      mimeType: 'video/mp4',
      source: 'uploaded-video',
      metadata: { type: 'uploaded-video', kind: 'video', name: 'walk cycle.mp4', uploadId: upload.id },
      properties: { size: bytes.length, format: 'mp4' },
    });
    const served = await fetch(asset.url);
    expect(served.headers.get('content-type')).toBe('video/mp4');
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(bytes));
    const created = await facts.waitFor(asset.id, 'asset.created');
    expect(created[0].envelope.data).toMatchObject({ type: 'uploaded-video', projectId: t.projectId });
    // Listed with the type filter; the pending deletion of its object is gone (the asset owns it now).
    const listed = await harness.request('GET', '/v1/assets?type=uploaded-video', {
      auth: t.auth.projectMember,
    });
    expect(listed.body.assets.map((a: Json) => a.id)).toContain(asset.id);
    const [{ n }] = await harness.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM assets.object_cleanup c JOIN assets.assets a ON a.storage_key = c.object_key WHERE a.id = $1`,
      [asset.id],
    );
    expect(n).toBe('0');
    // A repeated complete answers the current state.
    expect((await action(upload.id, { action: 'complete', parts })).body.upload.status).toBe('imported');
  });

  it.each([
    [
      'audio (MP3)',
      () => files.mp3(300_000),
      { fileName: 'theme.mp3', contentType: 'audio/mpeg', kind: 'audio' },
      'uploaded-audio',
      'audio',
      'audio/mpeg',
    ],
    [
      '3D (GLB)',
      () => files.glb(200_000),
      { fileName: 'robot.glb', contentType: 'model/gltf-binary', kind: '3d' },
      'uploaded-3d',
      '3d',
      'model/gltf-binary',
    ],
    [
      'an MP4 declared as audio',
      () => files.mp4(100_000),
      { fileName: 'a.m4a', contentType: 'audio/mp4', kind: 'audio' },
      'uploaded-audio',
      'audio',
      'audio/mp4',
    ],
    [
      'kind asset (any)',
      () => files.glb(1000),
      { fileName: 'x', contentType: 'application/octet-stream', kind: 'asset' },
      'uploaded-3d',
      '3d',
      'model/gltf-binary',
    ],
  ])('%s is imported', async (_label, make, body, type, kind, mimeType) => {
    const bytes = make();
    const upload = await uploadFile(bytes, body);
    expect(upload.status).toBe('imported');
    const asset = (
      await harness.request('GET', `/v1/assets/${upload.entityId}`, { auth: t.auth.projectMember })
    ).body.asset;
    expect(asset).toMatchObject({ kind, mimeType, metadata: { type }, properties: { size: bytes.length } });
    expect(sha256(Buffer.from(await (await fetch(asset.url)).arrayBuffer()))).toBe(sha256(bytes));
  });

  it('an image: decoded by sharp (width, height), web rendition, child of a parent; avatar kind → uploaded-avatar', async () => {
    const parent = await uploadImage(harness, t.auth.projectMember);
    const bytes = await png(300, 200, '#123456');
    const upload = await uploadFile(bytes, {
      fileName: 'p.png',
      contentType: 'image/png',
      kind: 'image',
      assetOptions: { parentId: parent.id },
    });
    expect(upload).toMatchObject({ status: 'imported', assetOptions: { parentId: parent.id } });
    const asset = (
      await harness.request('GET', `/v1/assets/${upload.entityId}`, { auth: t.auth.projectMember })
    ).body.asset;
    expect(asset).toMatchObject({
      kind: 'image',
      mimeType: 'image/png',
      metadata: { type: 'uploaded', parentId: parent.id, rootParentId: parent.id },
      properties: { width: 300, height: 200, size: bytes.length, format: 'png' },
    });
    expect(asset.url).toContain('web-');
    const avatar = await uploadFile(await png(10, 10), {
      fileName: 'me.png',
      contentType: 'image/png',
      kind: 'avatar',
    });
    expect(
      (await harness.request('GET', `/v1/assets/${avatar.entityId}`, { auth: t.auth.projectMember })).body
        .asset.metadata.type,
    ).toBe('uploaded-avatar');
  });

  it.each([
    [
      'content of another kind (MP3 declared as video)',
      () => files.mp3(50_000),
      { contentType: 'video/mp4', kind: 'video' },
      'not a video file',
    ],
    [
      'unrecognised content (HTML)',
      () => files.html(),
      { contentType: 'application/octet-stream', kind: 'asset' },
      'not a supported',
    ],
    [
      'a corrupt image',
      () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(500)]),
      { contentType: 'image/png', kind: 'image' },
      'not a supported image',
    ],
  ])('%s → failed with the reason; no asset, no object left', async (_label, make, body, reason) => {
    const bytes = make();
    const upload = await uploadFile(bytes, { fileName: 'f.bin', ...body });
    expect(upload).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining(reason) });
    expect(upload.entityId).toBeUndefined();
    const [row] = await harness.db.query<{ asset_id: string; object_key: string }>(
      'SELECT asset_id, object_key FROM assets.uploads WHERE id = $1',
      [upload.id],
    );
    expect(await harness.db.query('SELECT 1 FROM assets.assets WHERE id = $1', [row.asset_id])).toEqual([]);
    expect(await stores.objects(row.object_key)).toEqual([]);
  });

  it('declared size not matching the uploaded bytes → failed', async () => {
    const bytes = files.mp3(20_000);
    const res = await create({
      fileName: 'a.mp3',
      fileSize: bytes.length + 10,
      contentType: 'audio/mpeg',
      kind: 'audio',
    });
    await putParts(res.body.upload, bytes);
    const done = await action(res.body.upload.id, { action: 'complete' });
    expect(done.body.upload).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringContaining(`has ${bytes.length} bytes`),
    });
  });

  describe('limits and refusals store nothing', () => {
    it.each([
      ['over 5 GiB', { fileSize: 5 * 1024 * MiB + 1 }, 413],
      ['an image over 25 MiB', { fileSize: 26 * MiB, kind: 'image', contentType: 'image/png' }, 413],
      ['parts under 5 MiB', { fileSize: 12 * MiB, parts: 3 }, 400],
      ['more than 1000 parts', { fileSize: 6000 * MiB, parts: 1001 }, 400],
      ['more parts than bytes', { fileSize: 3, parts: 4 }, 400],
      ['an HTML content type', { contentType: 'text/html' }, 400],
      ['SVG as an image', { contentType: 'image/svg+xml', kind: 'image' }, 400],
      ['a content type of another kind', { contentType: 'audio/mpeg', kind: 'video' }, 400],
      ['kind model', { kind: 'model' }, 400],
      ['an unknown kind', { kind: 'document' }, 400],
      ['a url upload', { url: 'https://example.com/a.mp4' }, 400],
      ['collectionIds', { assetOptions: { collectionIds: ['c'] } }, 400],
      ['no fileName', { fileName: undefined }, 400],
      ['a fractional size', { fileSize: 1.5 }, 400],
      ['an unknown field', { extra: true }, 400],
    ])('%s → refused', async (_label, override, statusCode) => {
      const before = await uploadCount();
      const body = {
        fileName: 'v.mp4',
        fileSize: 10 * MiB,
        contentType: 'video/mp4',
        kind: 'video',
        ...override,
      };
      const res = await create(body);
      expect(res.status).toBe(statusCode);
      if (statusCode === 413)
        expect(res.body).toMatchObject({
          apiError: 'payload_too_large',
          infos: { limit: expect.any(Number) },
        });
      expect(await uploadCount()).toBe(before);
    });

    it('an unknown parent → 404', async () => {
      const res = await create({
        fileName: 'v.mp4',
        fileSize: 100,
        contentType: 'video/mp4',
        kind: 'video',
        assetOptions: { parentId: 'asset_01JZZZZZZZZZZZZZZZZZZZZZZZ' },
      });
      expect(res.status).toBe(404);
    });
  });

  it('complete without parts needs every part uploaded; wrong lists and ETags are refused; the upload stays pending', async () => {
    const bytes = files.mp4(11 * MiB);
    const res = await create({
      fileName: 'v.mp4',
      fileSize: bytes.length,
      contentType: 'video/mp4',
      kind: 'video',
      parts: 2,
    });
    const id = res.body.upload.id;
    const [first] = await putParts(res.body.upload, bytes, [1]);
    const missing = await action(id, { action: 'complete' });
    expect(missing).toMatchObject({
      status: 400,
      body: {
        infos: { fields: { parts: [expect.stringContaining('1 of 2 parts have not been uploaded (2)')] } },
      },
    });
    const [second] = await putParts(res.body.upload, bytes, [2]);
    const wrongEtag = await action(id, {
      action: 'complete',
      parts: [first, { partNumber: 2, etag: first.etag }],
    });
    expect(wrongEtag).toMatchObject({
      status: 400,
      body: { apiError: 'invalid_parts', infos: { reason: 'InvalidPart' } },
    });
    const parts = [first, second];
    for (const body of [
      { action: 'complete', parts: parts.slice(0, 1) },
      { action: 'complete', parts: [parts[0], parts[0]] },
      { action: 'complete', parts: [parts[0], { partNumber: 3, etag: parts[1].etag }] },
      { action: 'upload-complete' },
      { action: 'complete', parts: [parts] },
    ]) {
      const refused = await action(id, body);
      expect({ body, status: refused.status }).toEqual({ body, status: 400 });
    }
    expect((await get(id)).body.upload.status).toBe('pending');
    expect((await action(id, { action: 'complete' })).status).toBe(200);
    expect((await settled(id)).status).toBe('imported');
  });

  it('cancel: a pending upload fails as canceled, its parts discarded; completing it afterwards → 409', async () => {
    const res = await create({
      fileName: 'v.mp4',
      fileSize: 1000,
      contentType: 'video/mp4',
      kind: 'video',
    });
    const id = res.body.upload.id;
    await putParts(res.body.upload, files.mp4(1000));
    const canceled = await action(id, { action: 'cancel' });
    expect(canceled.body.upload).toMatchObject({
      status: 'failed',
      errorMessage: 'canceled by the client',
    });
    expect(canceled.body.upload.parts).toBeUndefined();
    expect((await action(id, { action: 'cancel' })).status).toBe(200);
    expect((await action(id, { action: 'complete', parts: [{ partNumber: 1, etag: 'x' }] })).status).toBe(
      409,
    );
    expect((await action(id, { action: 'complete' })).status).toBe(409);
    const [row] = await harness.db.query<{ object_key: string; multipart_upload_id: string }>(
      'SELECT object_key, multipart_upload_id FROM assets.uploads WHERE id = $1',
      [id],
    );
    await expect(stores.store.listParts(row.object_key, row.multipart_upload_id)).rejects.toMatchObject({
      code: 'NoSuchUpload',
    });
    expect(await stores.objects(row.object_key)).toEqual([]);
    const imported = await uploadFile(files.mp3(1000), {
      fileName: 'a.mp3',
      contentType: 'audio/mpeg',
      kind: 'audio',
    });
    expect((await action(imported.id, { action: 'cancel' })).status).toBe(409);
  });

  it("another tenant's upload is a 404 on every route; team keys name the project", async () => {
    const res = await create({
      fileName: 'v.mp4',
      fileSize: 1000,
      contentType: 'video/mp4',
      kind: 'video',
    });
    const id = res.body.upload.id;
    const other = await harness.tenant();
    for (const auth of [other.auth.projectMember, other.auth.projectAdmin]) {
      expect((await get(id, auth)).status).toBe(404);
      expect((await action(id, { action: 'cancel' }, auth)).status).toBe(404);
    }
    expect(
      (
        await harness.request('GET', `/v1/uploads/${id}?projectId=${t.projectId}`, {
          auth: other.auth.teamAdmin,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await harness.request('GET', `/v1/uploads/${id}?projectId=${t.projectId}`, {
          auth: t.auth.teamAdmin,
        })
      ).status,
    ).toBe(200);
    expect((await get('upload_nope')).status).toBe(404);
    expect((await get('upload_nope!')).body.infos.fields).toEqual({ uploadId: [expect.stringMatching(/^uploadId must be/)] });
    expect((await harness.request('GET', `/v1/uploads/${id}`, { auth: 'public-auth-token' })).status).toBe(
      401,
    );
    expect((await get(id)).body.upload.status).toBe('pending');
  });
});
