// Behaviour every ObjectStore adapter must share. Not a test file by itself:
// filesystem-object-store.spec.ts and s3-object-store.int-spec.ts run it.
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStore } from './object-store';
import { InvalidObjectKeyError, ObjectNotFoundError } from './storage.errors';

export interface ContractFixture {
  store: ObjectStore;
  /**
   * Whether the server behind signed URLs checks signatures. s3rver checks
   * expiry but not SigV4 signatures (its authentication.js: "Signature version
   * 4 calculation is unimplemented"); real S3, MinIO and our files route do.
   */
  verifiesSignatures: boolean;
  teardown(): Promise<void>;
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of iterable) keys.push(key);
  return keys;
}

/** A stream of `size` pseudo-random bytes in uneven chunks, length unknown to the reader. */
function unknownLengthStream(size: number): { stream: Readable; sha256: string } {
  const data = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) data.writeUInt32LE(Math.imul(i, 2654435761) >>> 0, i);
  const chunks: Buffer[] = [];
  for (let at = 0, n = 1; at < size; n++) {
    const len = Math.min(size - at, 65_536 + ((n * 7919) % 300_000));
    chunks.push(data.subarray(at, at + len));
    at += len;
  }
  return { stream: Readable.from(chunks), sha256: createHash('sha256').update(data).digest('hex') };
}

export function objectStoreContract(name: string, setup: () => Promise<ContractFixture>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let fixture: ContractFixture;
    let store: ObjectStore;
    let base: string;

    beforeAll(async () => {
      fixture = await setup();
      store = fixture.store;
    });
    afterAll(() => fixture?.teardown());
    beforeEach(() => {
      base = `contract/${randomUUID()}`;
    });

    it('round-trips bytes and content type, from a buffer and from a stream', async () => {
      const put = await store.put(`${base}/a.png`, Buffer.from('png bytes'), { contentType: 'image/png' });
      expect(put).toEqual({ key: `${base}/a.png`, contentLength: 9 });
      await store.put(`${base}/b.txt`, Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
        contentType: 'text/plain; charset=utf-8',
        contentLength: 11,
      });
      const a = await store.get(`${base}/a.png`);
      expect({
        type: a.contentType,
        length: a.contentLength,
        body: (await readAll(a.body)).toString(),
      }).toEqual({
        type: 'image/png',
        length: 9,
        body: 'png bytes',
      });
      const b = await store.get(`${base}/b.txt`);
      expect(b.contentType).toBe('text/plain; charset=utf-8');
      expect((await readAll(b.body)).toString()).toBe('hello world');
      expect(await store.head(`${base}/a.png`)).toMatchObject({
        key: `${base}/a.png`,
        contentType: 'image/png',
        contentLength: 9,
      });
      expect(await store.exists(`${base}/a.png`)).toBe(true);
    });

    it('keeps unicode and spaces in keys', async () => {
      const key = `${base}/dossier été/ファイル 1.txt`;
      await store.put(key, Buffer.from('x'), { contentType: 'text/plain' });
      expect(await collect(store.list(`${base}/`))).toEqual([key]);
      expect((await readAll((await store.get(key)).body)).toString()).toBe('x');
    });

    it('replaces an object on a second put', async () => {
      await store.put(`${base}/k`, Buffer.from('one'), { contentType: 'text/plain' });
      await store.put(`${base}/k`, Buffer.from('second'), { contentType: 'application/json' });
      const object = await store.get(`${base}/k`);
      expect(object.contentType).toBe('application/json');
      expect((await readAll(object.body)).toString()).toBe('second');
    });

    it('reports a missing object', async () => {
      await expect(store.get(`${base}/missing`)).rejects.toBeInstanceOf(ObjectNotFoundError);
      expect(await store.head(`${base}/missing`)).toBeUndefined();
      expect(await store.exists(`${base}/missing`)).toBe(false);
    });

    it('refuses keys that could escape or that the other store could not hold', async () => {
      for (const key of ['../x', 'a/../../x', '/abs', 'a//b', 'a\\b', 'a/./b', '', 'a\nb']) {
        await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(
          InvalidObjectKeyError,
        );
      }
      await expect(store.get('../etc/passwd')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    });

    it('uploads a stream of unknown length', async () => {
      const { stream, sha256 } = unknownLengthStream(11 * 1024 * 1024 + 123);
      const result = await store.upload(`${base}/big.bin`, stream, {
        contentType: 'application/octet-stream',
        partSizeBytes: 5 * 1024 * 1024,
      });
      expect(result.contentLength).toBe(11 * 1024 * 1024 + 123);
      const object = await store.get(`${base}/big.bin`);
      expect(object.contentLength).toBe(result.contentLength);
      expect(
        createHash('sha256')
          .update(await readAll(object.body))
          .digest('hex'),
      ).toBe(sha256);
      // put() without a length takes the same path.
      await store.put(`${base}/small.bin`, Readable.from([Buffer.from('abc')]), {
        contentType: 'application/octet-stream',
      });
      expect((await store.head(`${base}/small.bin`))?.contentLength).toBe(3);
    });

    it('stores nothing when the body stream fails', async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1024, 1));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(store.upload(`${base}/broken`, failing, { contentType: 'text/plain' })).rejects.toThrow();
      expect(await store.exists(`${base}/broken`)).toBe(false);
    });

    it('deletes a batch, ignoring keys that do not exist', async () => {
      for (const n of [1, 2, 3, 4, 5])
        await store.put(`${base}/d/${n}`, Buffer.from(String(n)), { contentType: 'text/plain' });
      await store.delete([`${base}/d/1`, `${base}/d/3`, `${base}/d/5`, `${base}/d/never`]);
      await store.delete([]);
      expect(await collect(store.list(`${base}/d/`))).toEqual([`${base}/d/2`, `${base}/d/4`]);
      await expect(store.get(`${base}/d/3`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('lists keys under a prefix in order, across pages', async () => {
      // No sibling like `x-1` (sorting before `x/`): s3rver walks folders and
      // mis-orders those across pages; the filesystem spec covers that order.
      const keys = ['x/b', 'x/a', 'x/c/d', 'x/c/e', 'xy', 'y/z'].map((k) => `${base}/${k}`);
      for (const key of keys) await store.put(key, Buffer.from('.'), { contentType: 'text/plain' });
      const expected = ['x/a', 'x/b', 'x/c/d', 'x/c/e', 'xy'].map((k) => `${base}/${k}`);
      expect(await collect(store.list(`${base}/x`, { pageSize: 2 }))).toEqual(expected);
      expect(await collect(store.list(`${base}/x/`, { pageSize: 2 }))).toEqual(expected.slice(0, 4));
      expect(await collect(store.list(`${base}/x/c`))).toEqual(expected.slice(2, 4));
      expect(await collect(store.list(`${base}/nothing/`))).toEqual([]);
    });

    it('hands out signed URLs that plain fetch can use', async () => {
      const key = `${base}/été/photo one+1.png`;
      await store.put(key, Buffer.from('PNGDATA'), { contentType: 'image/png' });
      const res = await fetch(await store.signedUrl(key, { expiresInSeconds: 60 }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('PNGDATA');

      const named = await fetch(
        await store.signedUrl(key, {
          expiresInSeconds: 60,
          downloadName: 'Mon image.png',
          contentType: 'application/octet-stream',
        }),
      );
      expect(named.status).toBe(200);
      expect(named.headers.get('content-type')).toBe('application/octet-stream');
      expect(named.headers.get('content-disposition')).toBe(
        `attachment; filename="Mon image.png"; filename*=UTF-8''Mon%20image.png`,
      );
      await named.arrayBuffer();
    });

    it('refuses an expired signed URL', async () => {
      await store.put(`${base}/e`, Buffer.from('e'), { contentType: 'text/plain' });
      const url = await store.signedUrl(`${base}/e`, { expiresInSeconds: 1 });
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const res = await fetch(url);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain('e\n');
    });

    it('refuses a tampered signed URL (where the server checks signatures)', async () => {
      if (!fixture.verifiesSignatures) return; // see ContractFixture.verifiesSignatures
      await store.put(`${base}/secret`, Buffer.from('mine'), { contentType: 'text/plain' });
      await store.put(`${base}/other`, Buffer.from('theirs'), { contentType: 'text/plain' });
      const url = new URL(await store.signedUrl(`${base}/secret`, { expiresInSeconds: 60 }));
      const otherKey = new URL(url.href.replace('/secret?', '/other?'));
      const sigParam = [...url.searchParams.keys()].find((k) => /signature/i.test(k))!;
      const badSig = new URL(url.href);
      badSig.searchParams.set(
        sigParam,
        url.searchParams.get(sigParam)!.replace(/^./, (c) => (c === '0' ? '1' : '0')),
      );
      for (const tampered of [otherKey, badSig]) {
        const res = await fetch(tampered);
        expect({ url: tampered.pathname, status: res.status }).toEqual({
          url: tampered.pathname,
          status: 403,
        });
        await res.arrayBuffer();
      }
    });

    it('validates signed URL lifetimes', async () => {
      await expect(store.signedUrl(`${base}/x`, { expiresInSeconds: 0 })).rejects.toThrow(RangeError);
      await expect(store.signedUrl(`${base}/x`, { expiresInSeconds: 8 * 24 * 3600 })).rejects.toThrow(
        RangeError,
      );
    });
  });
}
