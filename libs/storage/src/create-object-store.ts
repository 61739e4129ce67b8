import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commonEnv, type z } from '@genasset/config';
import { FilesystemObjectStore } from './filesystem/filesystem-object-store';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3/s3-object-store';

/** The variables of `commonEnv` the object store reads. */
export const storageEnv = commonEnv.pick({
  DATA_DIR: true,
  PORT: true,
  PUBLIC_BASE_URL: true,
  S3_ENDPOINT: true,
  S3_REGION: true,
  S3_BUCKET: true,
  S3_ACCESS_KEY_ID: true,
  S3_SECRET_ACCESS_KEY: true,
  S3_FORCE_PATH_STYLE: true,
  S3_PUBLIC_ENDPOINT: true,
  STORAGE_SIGNING_SECRET: true,
});

export type StorageConfig = z.infer<typeof storageEnv>;

export type StorageKind = 's3' | 'filesystem';

/** S3 when a bucket is configured; the filesystem under DATA_DIR otherwise (embedded mode). */
export function storageKind(config: Pick<StorageConfig, 'S3_BUCKET' | 'S3_ENDPOINT'>): StorageKind {
  if (config.S3_BUCKET) return 's3';
  if (config.S3_ENDPOINT)
    throw new Error(
      'S3_ENDPOINT is set but S3_BUCKET is not: set S3_BUCKET, or unset S3_ENDPOINT to use the filesystem store',
    );
  return 'filesystem';
}

/**
 * Builds the store the configuration asks for. Creating the bucket is not its
 * job (deployment does it); the filesystem store's directory is created on
 * first write.
 */
export function createObjectStore(config: StorageConfig): ObjectStore {
  if (storageKind(config) === 's3') {
    return new S3ObjectStore({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      publicEndpoint: config.S3_PUBLIC_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  const dataDir = resolve(config.DATA_DIR);
  return new FilesystemObjectStore({
    rootDir: join(dataDir, 'objects'),
    signingSecret: config.STORAGE_SIGNING_SECRET ?? persistedSecret(dataDir),
    publicBaseUrl: config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`,
  });
}

/**
 * Embedded mode must start with no configuration, yet URLs handed out should
 * survive a restart: a random secret is generated once and kept, readable by
 * the owner only, beside the data it protects.
 */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'storage-signing.secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process of the same data dir won the race: use its secret.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}
