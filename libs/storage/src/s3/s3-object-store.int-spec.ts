import { randomUUID } from 'node:crypto';
import { testServices } from '@genasset/testing';
import { objectStoreContract } from '../object-store.contract';
import { S3ObjectStore } from './s3-object-store';

function storeFor(publicEndpoint?: string): S3ObjectStore {
  const { s3 } = testServices();
  return new S3ObjectStore({ ...s3, forcePathStyle: true, publicEndpoint });
}

/** Sends a presigned GET with a wrong signature: does this server notice? */
async function serverVerifiesSignatures(store: S3ObjectStore): Promise<boolean> {
  const key = `probe/${randomUUID()}`;
  await store.put(key, Buffer.from('probe'), { contentType: 'text/plain' });
  const url = new URL(await store.signedUrl(key, { expiresInSeconds: 60 }));
  url.searchParams.set('X-Amz-Signature', '0'.repeat(64));
  const res = await fetch(url);
  await res.arrayBuffer();
  await store.delete([key]);
  return res.status === 403;
}

objectStoreContract('S3ObjectStore', async () => {
  const store = storeFor();
  return { store, verifiesSignatures: await serverVerifiesSignatures(store), teardown: () => store.close() };
});

describe('S3ObjectStore specifics', () => {
  let store: S3ObjectStore;
  beforeAll(() => {
    store = storeFor();
  });
  afterAll(() => store.close());

  it('deletes more than one DeleteObjects batch', async () => {
    const base = `batch/${randomUUID()}`;
    const keys = Array.from({ length: 1005 }, (_, i) => `${base}/${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys.slice(i, i + 50).map((k) => store.put(k, Buffer.from('.'), { contentType: 'text/plain' })),
      );
    }
    let listed = 0;
    for await (const _ of store.list(`${base}/`)) listed++;
    expect(listed).toBe(1005);
    await store.delete(keys);
    for await (const key of store.list(`${base}/`)) throw new Error(`still there: ${key}`);
  }, 120_000);

  it('writes the public endpoint into presigned URLs when one is configured', async () => {
    const external = storeFor('https://files.example.com');
    const url = new URL(await external.signedUrl('a/b.png', { expiresInSeconds: 60 }));
    expect(url.origin).toBe('https://files.example.com');
    expect(url.pathname).toBe(`/${testServices().s3.bucket}/a/b.png`);
    await external.close();
  });
});
