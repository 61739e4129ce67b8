import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { objectStoreContract } from '../object-store.contract';
import { ContentLengthMismatchError, InvalidObjectKeyError, ObjectNotFoundError } from '../storage.errors';
import { startFilesServer } from '../testing/files-server.fixture';
import { FilesystemObjectStore } from './filesystem-object-store';

objectStoreContract('FilesystemObjectStore', async () => {
  const server = await startFilesServer();
  return { store: server.store, verifiesSignatures: true, teardown: server.close };
});

describe('FilesystemObjectStore specifics', () => {
  let dir: string;
  let store: FilesystemObjectStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genasset-fs-'));
    store = new FilesystemObjectStore({
      rootDir: join(dir, 'objects'),
      signingSecret: 'x'.repeat(32),
      publicBaseUrl: 'http://localhost:8080/',
    });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const text = async (key: string): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const c of (await store.get(key)).body) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString();
  };

  it('keeps files under <root>/<key> with a .meta.json sidecar', async () => {
    await store.put('assets/t1/a.png', Buffer.from('png'), { contentType: 'image/png' });
    expect(await readFile(join(dir, 'objects/assets/t1/a.png'), 'utf8')).toBe('png');
    expect(JSON.parse(await readFile(join(dir, 'objects/assets/t1/a.png.meta.json'), 'utf8'))).toEqual({
      contentType: 'image/png',
    });
    expect(await readdir(join(dir, 'objects/.tmp'))).toEqual([]);
  });

  it('never shows a half-written object: readers see the old bytes until the new ones are complete', async () => {
    await store.put('doc.txt', Buffer.from('old'), { contentType: 'text/plain' });
    const slow = new PassThrough();
    const writing = store.put('doc.txt', slow, { contentType: 'text/markdown' });
    slow.write('new ');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await text('doc.txt')).toBe('old');
    expect((await store.head('doc.txt'))?.contentType).toBe('text/plain');
    slow.end('content');
    await writing;
    expect(await text('doc.txt')).toBe('new content');
    expect((await store.head('doc.txt'))?.contentType).toBe('text/markdown');
  });

  it('refuses a body whose length differs from the declared one, keeping the old object', async () => {
    await store.put('k', Buffer.from('old'), { contentType: 'text/plain' });
    const body = new PassThrough();
    body.end('twelve bytes');
    await expect(
      store.put('k', body, { contentType: 'text/plain', contentLength: 5 }),
    ).rejects.toBeInstanceOf(ContentLengthMismatchError);
    expect(await text('k')).toBe('old');
    expect(await readdir(join(dir, 'objects/.tmp'))).toEqual([]);
  });

  it('lists in S3 byte order and skips sidecars and temp files', async () => {
    for (const key of ['x/b', 'x-1', 'x/a', 'xy', 'é', 'z'])
      await store.put(key, Buffer.from('.'), { contentType: 'text/plain' });
    await writeFile(join(dir, 'objects/.tmp/leftover'), 'junk');
    const keys: string[] = [];
    for await (const key of store.list('')) keys.push(key);
    expect(keys).toEqual(['x-1', 'x/a', 'x/b', 'xy', 'z', 'é']);
  });

  it('reserves sidecar and temp names and rejects file/folder clashes', async () => {
    await expect(
      store.put('a.meta.json', Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.put('.tmp/x', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(
      InvalidObjectKeyError,
    );
    await store.put('a', Buffer.from('x'), { contentType: 'text/plain' });
    await expect(store.put('a/b', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
      /conflicts/,
    );
    await store.put('f/g', Buffer.from('x'), { contentType: 'text/plain' });
    await expect(store.put('f', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
      /conflicts/,
    );
    await expect(store.get('f')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(existsSync(join(dir, 'objects/f.meta.json'))).toBe(false);
  });

  it('cannot be walked out of its root through keys', async () => {
    await writeFile(join(dir, 'outside.txt'), 'secret');
    for (const key of [
      '../outside.txt',
      'a/../../outside.txt',
      '/etc/passwd',
      '..',
      'a\\..\\..\\outside.txt',
    ]) {
      await expect(store.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
    await expect(store.delete(['../outside.txt'])).rejects.toBeInstanceOf(InvalidObjectKeyError);
    expect(existsSync(join(dir, 'outside.txt'))).toBe(true);
  });

  it('prunes folders emptied by delete', async () => {
    await store.put('a/b/c/d', Buffer.from('x'), { contentType: 'text/plain' });
    await store.put('a/keep', Buffer.from('x'), { contentType: 'text/plain' });
    await store.delete(['a/b/c/d']);
    expect(existsSync(join(dir, 'objects/a/b'))).toBe(false);
    expect(existsSync(join(dir, 'objects/a/keep'))).toBe(true);
  });

  it('signs URLs under /v1/files with expires and a hex HMAC, encoding the key', async () => {
    const url = new URL(
      await store.signedUrl('assets/my file.png', { expiresInSeconds: 60, downloadName: 'a.png' }),
    );
    expect(url.origin + url.pathname).toBe('http://localhost:8080/v1/files/assets/my%20file.png');
    expect(Number(url.searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000);
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('name')).toBe('a.png');
  });

  it('follows a symlink an operator planted (keys themselves cannot create one)', async () => {
    // Keys cannot create symlinks; this documents that the store follows ones an operator puts there.
    await store.put('inside', Buffer.from('x'), { contentType: 'text/plain' });
    await symlink(join(dir, 'objects/inside'), join(dir, 'objects/alias'));
    expect(await text('alias')).toBe('x');
  });
});
