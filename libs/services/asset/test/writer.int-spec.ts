import { loadConfig } from '@genasset/config';
import { ApiError } from '@genasset/http';
import { Outbox } from '@genasset/messaging';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { createObjectStore, storageEnv, type ObjectStore, type PutOptions, type PutResult } from '@genasset/storage';
import { createTestDatabase, type TestDatabase } from '@genasset/testing';
import { ulid } from 'ulid';
import { ASSET_SCHEMA, AssetRepository, AssetWriter, StoredObjects } from '../src';
import { AssetPrisma } from '../src/asset.prisma';
import { AssetFacts } from '../src/facts/asset-facts';
import { ObjectCleanupRepository } from '../src/objects/object-cleanup.repository';
import { listObjects, png } from './support/asset-fixtures';

/**
 * The writer other features use to create derived assets (generation outputs,
 * texture maps, masks), on the real database and S3 server.
 */
describe('AssetWriter (derived assets)', () => {
  let database: TestDatabase;
  let connection: PostgresConnection;
  let prisma: AssetPrisma;
  let store: ObjectStore;
  let objects: StoredObjects;
  let writer: AssetWriter;
  const owner = { teamId: 'team_w', projectId: `proj_${ulid()}`, authorId: 'key_w' };

  beforeAll(async () => {
    database = await createTestDatabase('asset-writer');
    connection = new PostgresConnection(database.url, { poolSize: 4 });
    await migrate(connection, ASSET_SCHEMA);
    prisma = new AssetPrisma(connection);
    store = createObjectStore(loadConfig(storageEnv, process.env));
    objects = new StoredObjects(store, new ObjectCleanupRepository(prisma));
    writer = new AssetWriter(new AssetFacts(new Outbox({ schema: 'assets', producer: 'asset-service' })), objects, store, new AssetRepository(prisma));
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await store?.close();
    await connection?.close();
    await database?.drop();
  });

  const outboxFacts = async (assetId: string) =>
    (await connection.query<{ type: string }>(`SELECT envelope->>'type' AS type FROM assets.outbox_events WHERE key = $1`, [assetId])).map((r) => r.type);

  async function storeOutput(jobId: string, index: number): Promise<string> {
    const key = `jobs/${jobId}/output-${index}.png`;
    await store.put(key, await png(32, 32, '#336699'), { contentType: 'image/png' });
    return key;
  }

  it('creates a job output once, however often its fact is delivered', async () => {
    const jobId = `job_${ulid()}`;
    const parent = await prisma.$transaction((tx) =>
      writer.create(tx, { owner, type: 'uploaded', kind: 'image', mimeType: 'image/png', storageKey: 'k/parent.png', properties: { size: 1 } }),
    );
    const key = await storeOutput(jobId, 0);
    const id = `asset_${ulid()}`;
    const described = await writer.describeStoredImage(owner.projectId, id, key);
    expect(described).toMatchObject({ kind: 'image', mimeType: 'image/png', properties: { width: 32, height: 32, format: 'png' } });

    const input = {
      id,
      owner,
      type: 'segmentation-mask' as const,
      ...described,
      storageKey: key,
      parentId: parent.id,
      jobId,
      outputIndex: 0,
      inferenceId: 'inf_1',
      modelId: 'model_1',
      metadata: { engine: 'image' },
    };
    const first = await prisma.$transaction((tx) => writer.createOnce(tx, input));
    const again = await prisma.$transaction((tx) => writer.createOnce(tx, { ...input, id: `asset_${ulid()}` }));
    expect(first.created).toBe(true);
    expect(again).toEqual({ asset: first.asset, created: false });
    expect(first.asset).toMatchObject({ parentId: parent.id, rootParentId: parent.id, jobId, outputIndex: 0, type: 'segmentation-mask' });
    expect(await outboxFacts(first.asset.id)).toEqual(['asset.created']);
    // The rendition it stored is no longer pending cleanup.
    const pending = await connection.query(`SELECT 1 FROM assets.object_cleanup WHERE object_key = $1`, [described.renditionKey]);
    expect(pending).toEqual([]);
  });

  it('keeps collection membership idempotently, within the project only', async () => {
    const repo = new AssetRepository(prisma);
    const make = () =>
      prisma.$transaction((tx) =>
        writer.create(tx, { owner, type: 'uploaded', kind: 'image', mimeType: 'image/png', storageKey: `k/${ulid()}.png`, properties: { size: 1 } }),
      );
    const [a, b] = [await make(), await make()];
    expect(await prisma.$transaction((tx) => repo.addToCollection(tx, owner.projectId, 'col_1', [a.id, b.id]))).toBe(2);
    expect(await prisma.$transaction((tx) => repo.addToCollection(tx, owner.projectId, 'col_1', [a.id, b.id]))).toBe(0);
    expect(await prisma.$transaction((tx) => repo.addToCollection(tx, 'proj_other', 'col_2', [a.id]))).toBe(0);
    await prisma.$transaction((tx) => repo.addToCollection(tx, owner.projectId, 'col_2', [a.id]));
    expect((await prisma.asset.findUnique({ where: { id: a.id } }))!.collectionIds).toEqual(['col_1', 'col_2']);
    expect(await prisma.$transaction((tx) => repo.removeFromCollection(tx, owner.projectId, 'col_1', [a.id]))).toBe(1);
    expect(await prisma.$transaction((tx) => repo.removeFromCollection(tx, owner.projectId, 'col_1'))).toBe(1);
    expect((await prisma.asset.findUnique({ where: { id: b.id } }))!.collectionIds).toEqual([]);
  });

  it('a parent outside the project → 404, nothing written', async () => {
    const error = await prisma
      .$transaction((tx) =>
        writer.create(tx, { owner, type: 'upscale', kind: 'image', mimeType: 'image/png', storageKey: 'k/x.png', properties: { size: 1 }, parentId: 'asset_NOPE' }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(404);
  });

  it('an object whose row never commits is deleted: at once on failure, by the sweeper after a crash', async () => {
    const key = `assets/${owner.projectId}/asset_failed/original-a.png`;
    await objects.put(key, await png(), 'image/png');
    await expect(
      prisma.$transaction(async (tx) => {
        await objects.keep(tx, [key]);
        throw new Error('row insert failed');
      }),
    ).rejects.toThrow('row insert failed');
    await objects.discard([key]);
    expect(await listObjects(key)).toEqual([]);
    expect(await connection.query(`SELECT 1 FROM assets.object_cleanup WHERE object_key = $1`, [key])).toEqual([]);

    // A crash right after the put: the pending row outlives the process and falls due.
    const crashed = `assets/${owner.projectId}/asset_crashed/original-b.png`;
    await objects.put(crashed, await png(), 'image/png');
    await connection.query(`UPDATE assets.object_cleanup SET due_at = now() - interval '1 second' WHERE object_key = $1`, [crashed]);
    expect(await objects.sweep()).toBeGreaterThanOrEqual(1);
    expect(await listObjects(crashed)).toEqual([]);
  });

  it('a failing store: the put error surfaces, and a failed deletion is retried later with backoff', async () => {
    const failing: ObjectStore = Object.create(store, {
      put: { value: (_k: string, _b: Buffer, _o: PutOptions): Promise<PutResult> => Promise.reject(new Error('S3 down')) },
      delete: { value: () => Promise.reject(new Error('S3 down')) },
    });
    const flaky = new StoredObjects(failing, new ObjectCleanupRepository(prisma));
    const key = `assets/${owner.projectId}/asset_flaky/original-c.png`;
    await expect(flaky.put(key, await png(), 'image/png')).rejects.toThrow('S3 down');
    await connection.query(`UPDATE assets.object_cleanup SET due_at = now() - interval '1 second' WHERE object_key = $1`, [key]);
    expect(await flaky.sweep()).toBe(0);
    const [row] = await connection.query<{ attempts: number; last_error: string; later: boolean }>(
      `SELECT attempts, last_error, due_at > now() AS later FROM assets.object_cleanup WHERE object_key = $1`,
      [key],
    );
    expect(row).toMatchObject({ attempts: 1, last_error: 'S3 down', later: true });
  });
});
