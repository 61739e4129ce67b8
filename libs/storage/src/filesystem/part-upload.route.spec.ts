import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type FilesServer, startFilesServer } from '../testing/files-server.fixture';

/** The filesystem store's part uploads (PUT /v1/files/<key>?uploadId=…), beyond the shared contract. */
describe('PUT /v1/files/* (part uploads)', () => {
  let server: FilesServer;
  beforeAll(async () => {
    server = await startFilesServer({ listen: false });
  });
  afterAll(() => server.close());

  const pathOf = (url: string): string => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  const put = (url: string, payload: Buffer | Readable, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'PUT', url: pathOf(url), payload, headers });
  const start = async (key: string, maxBytes = 10) => {
    const id = await server.store.createMultipartUpload(key, 'model/gltf+json');
    return { id, url: await server.store.signedPartUrl(key, id, 1, { expiresInSeconds: 60, maxBytes }) };
  };
  const tmpFiles = () => readdir(join(server.store.rootDir, '.tmp')).catch(() => []);

  it('stores any content type raw, JSON included, never parsing it', async () => {
    const { id, url } = await start('a/scene.gltf', 100);
    const json = '{"asset":{"version":"2.0"}, "x": [1,2,3]}';
    const res = await put(url, Buffer.from(json), { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    const [part] = await server.store.listParts('a/scene.gltf', id);
    await server.store.completeMultipartUpload('a/scene.gltf', id, [part]);
    const chunks: Buffer[] = [];
    for await (const chunk of (await server.store.get('a/scene.gltf')).body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(json);
  });

  it('refuses a body over the signed limit with 413, by its Content-Length or while streaming, storing nothing', async () => {
    const { id, url } = await start('a/big.bin', 10);
    const declared = await put(url, Buffer.alloc(11, 1));
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ apiError: 'payload_too_large', infos: { limit: 10 } });
    // No length announced (chunked): counted as it arrives.
    const streamed = await put(url, Readable.from([Buffer.alloc(6, 1), Buffer.alloc(6, 2)]), {
      'transfer-encoding': 'chunked',
    });
    expect(streamed.statusCode).toBe(413);
    expect(await server.store.listParts('a/big.bin', id)).toEqual([]);
    expect(await tmpFiles()).toEqual([]);
    expect((await put(url, Buffer.alloc(10, 1))).statusCode).toBe(200);
  });

  it('signs the limit in: raising it in the URL breaks the signature', async () => {
    const { url } = await start('a/limit.bin', 10);
    const raised = new URL(url);
    raised.searchParams.set('max', '1000000');
    const res = await put(raised.href, Buffer.alloc(100));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ apiError: 'forbidden', error: 'Invalid file signature' });
  });

  it('keeps download and upload URLs apart', async () => {
    await server.store.put('a/object.txt', Buffer.from('mine'), { contentType: 'text/plain' });
    const download = await server.store.signedUrl('a/object.txt', { expiresInSeconds: 60 });
    expect((await put(download, Buffer.from('overwritten'))).statusCode).toBe(403);
    const { url } = await start('a/object.txt');
    expect((await server.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(403);
  });

  it('answers 404 for an upload that was aborted or completed', async () => {
    const { id, url } = await start('a/gone.bin');
    await server.store.abortMultipartUpload('a/gone.bin', id);
    const res = await put(url, Buffer.from('late'));
    expect(res.statusCode).toBe(404);
    expect(await tmpFiles()).toEqual([]);
  });

  it('keeps uploads in progress out of listings and out of reach of keys', async () => {
    await start('b/hidden.bin');
    const keys: string[] = [];
    for await (const key of server.store.list('')) keys.push(key);
    expect(keys.filter((k) => k.startsWith('.'))).toEqual([]);
    await expect(
      server.store.put('.multipart/x', Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toThrow(/reserved/);
  });
});
