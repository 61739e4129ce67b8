// Behaviour every ObjectStore adapter must share. Not a test file by itself:
// filesystem-object-store.spec.ts and s3-object-store.int-spec.ts run it.
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStore } from './object-store';
import { signedAgo } from './testing/signed-ago';
import { InvalidObjectKeyError, MultipartUploadError, ObjectNotFoundError } from './storage.errors';

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

const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const md5Etag = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;

/** PUTs one part to its signed URL as a client does (plain fetch); returns the answer's status and ETag. */
async function putPart(url: string, body: Buffer): Promise<{ status: number; etag: string | null }> {
  const res = await fetch(url, { method: 'PUT', body });
  await res.arrayBuffer();
  return { status: res.status, etag: res.headers.get('etag') };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
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
      // Signed 3 s ago for 1 s: expired 2 s ago.
      const url = await signedAgo(3_000, () => store.signedUrl(`${base}/e`, { expiresInSeconds: 1 }));
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
    describe('multipart uploads through signed part URLs', () => {
      const url = (key: string, id: string, n: number, expiresInSeconds = 60) =>
        store.signedPartUrl(key, id, n, { expiresInSeconds, maxBytes: 6 * MiB });

      it('takes parts PUT in any order, lists them with their ETags and sizes, and assembles them', async () => {
        const key = `${base}/video.bin`;
        const id = await store.createMultipartUpload(key, 'application/zip');
        const first = Buffer.alloc(5 * MiB, 7);
        first.write('first part', 0);
        const last = Buffer.from('the end');
        const [two, one] = await Promise.all([
          putPart(await url(key, id, 2), last),
          putPart(await url(key, id, 1), first),
        ]);
        // The ETag header, as S3 answers it: the part's MD5 in quotes.
        expect([one, two]).toEqual([
          { status: 200, etag: md5Etag(first) },
          { status: 200, etag: md5Etag(last) },
        ]);
        const listed = await store.listParts(key, id);
        expect(listed).toEqual([
          { partNumber: 1, etag: md5Etag(first), size: first.length },
          { partNumber: 2, etag: md5Etag(last), size: last.length },
        ]);
        expect(await store.exists(key)).toBe(false);
        await store.completeMultipartUpload(key, id, listed);
        const object = await store.get(key);
        expect({ type: object.contentType, length: object.contentLength }).toEqual({
          type: 'application/zip',
          length: first.length + last.length,
        });
        expect(sha256(await readAll(object.body))).toBe(sha256(Buffer.concat([first, last])));
        // Completed: the upload is gone.
        expect(await rejection(store.listParts(key, id))).toMatchObject({ code: 'NoSuchUpload' });
      });

      it('keeps the last PUT of a part', async () => {
        const key = `${base}/again.txt`;
        const id = await store.createMultipartUpload(key, 'text/plain');
        await putPart(await url(key, id, 1), Buffer.from('first try'));
        const second = await putPart(await url(key, id, 1), Buffer.from('second'));
        expect(await store.listParts(key, id)).toEqual([{ partNumber: 1, etag: second.etag, size: 6 }]);
        await store.completeMultipartUpload(key, id, [{ partNumber: 1, etag: second.etag! }]);
        expect((await readAll((await store.get(key)).body)).toString()).toBe('second');
      });

      it('refuses part lists that do not match what was uploaded, and stays completable', async () => {
        const key = `${base}/refused.bin`;
        const id = await store.createMultipartUpload(key, 'application/octet-stream');
        const first = Buffer.alloc(5 * MiB, 1);
        const p1 = await putPart(await url(key, id, 1), first);
        const p2 = await putPart(await url(key, id, 2), Buffer.from('tail'));
        const wrongEtag = md5Etag(Buffer.from('something else'));
        for (const [parts, code] of [
          [
            [
              { partNumber: 1, etag: p1.etag! },
              { partNumber: 2, etag: wrongEtag },
            ],
            'InvalidPart',
          ],
          [
            [
              { partNumber: 1, etag: p1.etag! },
              { partNumber: 3, etag: p2.etag! },
            ],
            'InvalidPart',
          ],
          [
            [
              { partNumber: 1, etag: p1.etag! },
              { partNumber: 1, etag: p1.etag! },
            ],
            'InvalidPartOrder',
          ],
        ] as const) {
          const error = await rejection(store.completeMultipartUpload(key, id, [...parts]));
          expect({ parts, error }).toEqual({ parts, error: expect.any(MultipartUploadError) });
          expect((error as MultipartUploadError).code).toBe(code);
        }
        // Every part but the last must have 5 MiB (S3's rule, kept by both stores).
        const small = await store.createMultipartUpload(`${base}/small.bin`, 'application/octet-stream');
        const s1 = await putPart(await url(`${base}/small.bin`, small, 1), Buffer.from('tiny'));
        const s2 = await putPart(await url(`${base}/small.bin`, small, 2), Buffer.from('tail'));
        expect(
          await rejection(
            store.completeMultipartUpload(`${base}/small.bin`, small, [
              { partNumber: 1, etag: s1.etag! },
              { partNumber: 2, etag: s2.etag! },
            ]),
          ),
        ).toMatchObject({ code: 'EntityTooSmall' });
        expect(await store.exists(key)).toBe(false);
        await store.completeMultipartUpload(key, id, await store.listParts(key, id));
        expect((await store.head(key))?.contentLength).toBe(first.length + 4);
        await store.abortMultipartUpload(`${base}/small.bin`, small);
      });

      it('aborts: the upload and its parts are gone, nothing is stored, and aborting again is fine', async () => {
        const key = `${base}/aborted.bin`;
        const id = await store.createMultipartUpload(key, 'application/octet-stream');
        const part = await putPart(await url(key, id, 1), Buffer.from('bytes'));
        await store.abortMultipartUpload(key, id);
        expect(await rejection(store.listParts(key, id))).toMatchObject({ code: 'NoSuchUpload' });
        expect(
          await rejection(store.completeMultipartUpload(key, id, [{ partNumber: 1, etag: part.etag! }])),
        ).toMatchObject({ code: 'NoSuchUpload' });
        expect(await store.exists(key)).toBe(false);
        await store.abortMultipartUpload(key, id);
      });

      it('refuses an expired or tampered part URL (tampering: where the server checks signatures)', async () => {
        const key = `${base}/guarded.bin`;
        const id = await store.createMultipartUpload(key, 'application/octet-stream');
        const expiring = await signedAgo(3_000, () => url(key, id, 1, 1));
        const signed = new URL(await url(key, id, 1));
        expect((await putPart(expiring, Buffer.from('late'))).status).toBe(403);
        if (fixture.verifiesSignatures) {
          const otherPart = new URL(signed.href);
          otherPart.searchParams.set('partNumber', '2');
          const otherKey = new URL(signed.href.replace('/guarded.bin?', '/other.bin?'));
          for (const tampered of [otherPart, otherKey])
            expect({
              url: tampered.pathname,
              status: (await putPart(tampered.href, Buffer.from('x'))).status,
            }).toEqual({ url: tampered.pathname, status: 403 });
        }
        expect(await store.listParts(key, id)).toEqual([]);
        await store.abortMultipartUpload(key, id);
      });
    });
  });
}
