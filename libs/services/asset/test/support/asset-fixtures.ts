import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { ASSETS_API } from '@genasset/contracts';
import { FilesystemObjectStore, type ObjectStore, S3ObjectStore } from '@genasset/storage';
import { freePort, startServiceHarness, testServices, type ServiceHarness, type Tenant } from '@genasset/testing';
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '../../src';

export { type ServiceHarness, type Tenant };

/** Response JSON as tests read it (the harness's `request` body is untyped too). */
 
export type Json = Record<string, any>;

/** asset-service alone, on the real PostgreSQL, broker and S3 server. */
export function startAssetHarness(env: Record<string, string> = {}): Promise<ServiceHarness> {
  return startServiceHarness({
    services: [{ name: ASSET_SERVICE, schema: ASSET_SCHEMA, module: AssetServiceModule, provides: [ASSETS_API] }],
    env: { INTERNAL_API_TOKEN: 'internal-test-token-0123456789', ...env },
  });
}

/** The object stores a suite runs on: the test S3 server, and the filesystem store of embedded mode. */
export const STORES = ['s3', 'filesystem'] as const;
export type StoreKind = (typeof STORES)[number];

export interface StoreHarness {
  harness: ServiceHarness;
  /** The test's own client of the storage the harness uses (the same bucket or directory). */
  store: ObjectStore;
  /** Keys stored under a prefix (to prove no orphan objects). */
  objects(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

async function keysOf(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys;
}

/**
 * asset-service on the real PostgreSQL and broker, its objects in `store`:
 * the test S3 server, or the filesystem store under a temp DATA_DIR with its
 * signed files route on the harness's own port (as in embedded mode).
 */
export async function startAssetHarnessOn(
  store: StoreKind,
  env: Record<string, string> = {},
): Promise<StoreHarness> {
  if (store === 's3') {
    const harness = await startAssetHarness(env);
    const client = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
    return {
      harness,
      store: client,
      objects: (prefix) => keysOf(client, prefix),
      close: async () => {
        await client.close();
        await harness.close();
      },
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'asset-fs-store-'));
  const port = await freePort();
  const harness = await startAssetHarness({
    S3_BUCKET: '',
    S3_ENDPOINT: '',
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    ...env,
  });
  // Reads only: the secret signs nothing here.
  const client = new FilesystemObjectStore({
    rootDir: join(dataDir, 'objects'),
    signingSecret: 'reading-only-secret',
    publicBaseUrl: 'http://127.0.0.1',
  });
  return {
    harness,
    store: client,
    objects: (prefix) => keysOf(client, prefix),
    close: async () => {
      await harness.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small PNG with an alpha channel (its WebP rendition is smaller). */
export async function png(width = 64, height = 48, colour = '#ff0000'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: colour } }).png().toBuffer();
}

export async function jpeg(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#00ff00' } }).jpeg().toBuffer();
}

export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** Uploads an image (or canvas) and returns the asset; fails the test on anything but 200. */
export async function upload(
  harness: ServiceHarness,
  auth: string,
  body: Record<string, unknown>,
  query = '',
): Promise<Json> {
  const res = await harness.request('POST', `/v1/assets${query}`, { auth, body });
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.asset;
}

export async function uploadImage(harness: ServiceHarness, auth: string, extra: Record<string, unknown> = {}): Promise<Json> {
  return upload(harness, auth, { image: dataUrl(await png()), name: 'image.png', ...extra });
}

export async function uploadCanvas(harness: ServiceHarness, auth: string, canvas: unknown = { layers: [] }): Promise<Json> {
  return upload(harness, auth, { canvas: JSON.stringify(canvas), name: 'canvas' });
}

/** Keys in the test bucket under a prefix (to prove no orphan objects). */
export async function listObjects(prefix: string): Promise<string[]> {
  const client = new S3Client({
    endpoint: process.env.S3_ENDPOINT,
    region: process.env.S3_REGION ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: process.env.S3_ACCESS_KEY_ID ?? 'S3RVER', secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? 'S3RVER' },
  });
  try {
    const res = await client.send(new ListObjectsV2Command({ Bucket: process.env.S3_BUCKET, Prefix: prefix }));
    return (res.Contents ?? []).map((o) => o.Key!);
  } finally {
    client.destroy();
  }
}

/** Sets a column directly (test setup of states no route creates on its own, e.g. past timestamps). */
export async function setColumns(harness: ServiceHarness, assetId: string, sql: string, params: unknown[] = []): Promise<void> {
  await harness.db.query(`UPDATE assets.assets SET ${sql} WHERE id = $1`, [assetId, ...params]);
}
