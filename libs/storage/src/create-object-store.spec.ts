import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@genasset/config';
import { createObjectStore, storageEnv, storageKind } from './create-object-store';
import { FilesystemObjectStore } from './filesystem/filesystem-object-store';
import { FilesController } from './filesystem/files.controller';
import { S3ObjectStore } from './s3/s3-object-store';
import { StorageModule } from './storage.module';
import { OBJECT_STORE } from './storage.tokens';

describe('createObjectStore', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'genasset-cfg-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('picks S3 when a bucket is set, the filesystem otherwise', () => {
    expect(storageKind({ S3_BUCKET: 'b' })).toBe('s3');
    expect(storageKind({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000' })).toBe('s3');
    expect(storageKind({})).toBe('filesystem');
    expect(() => storageKind({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_BUCKET/);
    const s3 = createObjectStore(
      loadConfig(storageEnv, { S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9' }),
    );
    expect(s3).toBeInstanceOf(S3ObjectStore);
    void s3.close();
  });

  it('embedded mode needs no configuration: it makes and keeps a signing secret under DATA_DIR', async () => {
    const config = loadConfig(storageEnv, { DATA_DIR: dataDir });
    const store = createObjectStore(config) as FilesystemObjectStore;
    expect(store).toBeInstanceOf(FilesystemObjectStore);
    expect(store.rootDir).toBe(join(dataDir, 'objects'));
    const secretFile = join(dataDir, 'storage-signing.secret');
    expect((await stat(secretFile)).mode & 0o777).toBe(0o600);
    const url = await store.signedUrl('a', { expiresInSeconds: 60 });
    expect(url.startsWith('http://localhost:8080/v1/files/a?')).toBe(true);
    // A restart signs identically, so links already handed out keep working.
    const again = createObjectStore(config) as FilesystemObjectStore;
    const parsed = new URL(url);
    const params = { key: 'a', expires: Number(parsed.searchParams.get('expires')) };
    expect(again.verifySignature(params, parsed.searchParams.get('signature')!)).toBe('valid');
    expect((await readFile(secretFile, 'utf8')).length).toBe(64);
  });

  it('uses STORAGE_SIGNING_SECRET and PUBLIC_BASE_URL when given', async () => {
    const store = createObjectStore(
      loadConfig(storageEnv, {
        DATA_DIR: dataDir,
        STORAGE_SIGNING_SECRET: 's'.repeat(32),
        PUBLIC_BASE_URL: 'https://api.example.com',
      }),
    );
    expect(await store.signedUrl('k', { expiresInSeconds: 5 })).toMatch(
      /^https:\/\/api\.example\.com\/v1\/files\/k\?/,
    );
    await expect(stat(join(dataDir, 'storage-signing.secret'))).rejects.toThrow();
  });
});

describe('StorageModule', () => {
  it('provides OBJECT_STORE and the files route in filesystem mode', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'genasset-mod-'));
    const moduleRef = await NestFactory.createApplicationContext(
      StorageModule.forRoot({ config: loadConfig(storageEnv, { DATA_DIR: dataDir }) }),
      { logger: false },
    );
    expect(moduleRef.get(OBJECT_STORE)).toBeInstanceOf(FilesystemObjectStore);
    expect(moduleRef.get(FilesController)).toBeInstanceOf(FilesController);
    await moduleRef.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('adds no files route in S3 mode', async () => {
    const moduleRef = await NestFactory.createApplicationContext(
      StorageModule.forRoot({
        config: loadConfig(storageEnv, { S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9' }),
      }),
      { logger: false },
    );
    expect(moduleRef.get(OBJECT_STORE)).toBeInstanceOf(S3ObjectStore);
    expect(() => moduleRef.get(FilesController)).toThrow();
    await moduleRef.close();
  });
});
