import { Injectable } from '@nestjs/common';
import { AssetPrisma } from '../asset.prisma';
import type { Asset, Prisma } from '../generated/prisma/client';
import { READABLE_BY_ID, type ReadScope } from './read-scope';

type Tx = Prisma.TransactionClient;

/** An asset as most reads load it: the embedding (up to thousands of floats) only when asked. */
export type AssetRow = Omit<Asset, 'embedding'> & { embedding?: number[] };

const omitEmbedding = (withEmbedding?: boolean) => (withEmbedding ? undefined : { embedding: true as const });

function readableWhere(scope: ReadScope): Prisma.AssetWhereInput {
  const published: Prisma.AssetWhereInput = { privacy: { in: [...READABLE_BY_ID] } };
  return scope.kind === 'public' ? published : { OR: [{ projectId: scope.projectId }, published] };
}

/**
 * Reads, writes and row locks of assets. Every read takes the project (or read
 * scope) it may see: no query here can reach another tenant's asset by id.
 */
@Injectable()
export class AssetRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  /** One transaction of the asset schema: rows, their objects' cleanup entries and the outbox commit together. */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: { timeout?: number }): Promise<T> {
    return this.prisma.$transaction(fn, options);
  }

  insert(tx: Tx, data: Prisma.AssetUncheckedCreateInput): Promise<Asset> {
    return tx.asset.create({ data });
  }

  /** The asset a job's output `outputIndex` became, if an earlier delivery created it. */
  findJobOutput(tx: Tx, jobId: string, outputIndex: number): Promise<Asset | null> {
    return tx.asset.findUnique({ where: { jobId_outputIndex: { jobId, outputIndex } } });
  }

  /** A would-be parent: its id and root, when it is in the project. */
  findParent(tx: Tx, projectId: string, id: string): Promise<Pick<Asset, 'id' | 'rootParentId'> | null> {
    return tx.asset.findFirst({ where: { id, projectId }, select: { id: true, rootParentId: true } });
  }

  /** Updates a row already locked in `tx` (see lockInProject). */
  update(tx: Tx, id: string, data: Prisma.AssetUpdateInput): Promise<AssetRow> {
    return tx.asset.update({ where: { id }, data, omit: { embedding: true } });
  }

  deleteInProject(tx: Tx, projectId: string, ids: readonly string[]): Promise<unknown> {
    return tx.asset.deleteMany({ where: { id: { in: [...ids] }, projectId } });
  }

  /** Stores the embedding only where it is still empty: a concurrent fill wrote the same vector. */
  fillEmbedding(id: string, embedding: number[]): Promise<unknown> {
    return this.prisma.asset.updateMany({ where: { id, embedding: { isEmpty: true } }, data: { embedding } });
  }

  findInProject(projectId: string, id: string, options: { withEmbedding?: boolean } = {}): Promise<AssetRow | null> {
    return this.prisma.asset.findFirst({ where: { id, projectId }, omit: omitEmbedding(options.withEmbedding) });
  }

  findReadable(scope: ReadScope, id: string, options: { withEmbedding?: boolean } = {}): Promise<AssetRow | null> {
    return this.prisma.asset.findFirst({ where: { id, ...readableWhere(scope) }, omit: omitEmbedding(options.withEmbedding) });
  }

  /** One query for a batch; the order of `ids` is kept, missing or unreadable ids are skipped. */
  async findManyReadable(scope: ReadScope, ids: readonly string[]): Promise<AssetRow[]> {
    const rows = await this.prisma.asset.findMany({
      where: { id: { in: [...ids] }, ...readableWhere(scope) },
      omit: { embedding: true },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Which of `ids` exist in the project (of that team, when given). */
  async existingIds(projectId: string, ids: readonly string[], teamId?: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.asset.findMany({
      where: { projectId, ...(teamId ? { teamId } : {}), id: { in: [...ids] } },
      select: { id: true },
    });
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => found.has(id));
  }

  /**
   * asset-service's copy of collection membership (`collectionIds`, the
   * `collectionId` filter), for the consumer of collection-service's
   * membership facts. Idempotent: adding a member twice or removing a
   * non-member changes nothing. Returns the rows changed.
   */
  addToCollection(tx: Tx, projectId: string, collectionId: string, assetIds: readonly string[]): Promise<number> {
    return tx.$executeRaw`
      UPDATE assets.assets SET collection_ids = array_append(collection_ids, ${collectionId})
       WHERE project_id = ${projectId} AND id = ANY(${[...assetIds]}::text[]) AND NOT (${collectionId} = ANY(collection_ids))`;
  }

  removeFromCollection(tx: Tx, projectId: string, collectionId: string, assetIds?: readonly string[]): Promise<number> {
    return assetIds
      ? tx.$executeRaw`
          UPDATE assets.assets SET collection_ids = array_remove(collection_ids, ${collectionId})
           WHERE project_id = ${projectId} AND id = ANY(${[...assetIds]}::text[]) AND ${collectionId} = ANY(collection_ids)`
      : tx.$executeRaw`
          UPDATE assets.assets SET collection_ids = array_remove(collection_ids, ${collectionId})
           WHERE project_id = ${projectId} AND collection_ids @> ARRAY[${collectionId}]::text[]`;
  }

  /** Where the originals of `ids` are, for those in the project (request order; others left out). */
  async originals(projectId: string, ids: readonly string[], teamId?: string): Promise<Pick<Asset, 'id' | 'storageKey' | 'mimeType' | 'kind' | 'type' | 'properties'>[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.asset.findMany({
      where: { projectId, ...(teamId ? { teamId } : {}), id: { in: [...ids] } },
      select: { id: true, storageKey: true, mimeType: true, kind: true, type: true, properties: true },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Locks the project's asset row for the rest of `tx` and returns it (null when not in the project). */
  async lockInProject(tx: Tx, projectId: string, id: string): Promise<AssetRow | null> {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM assets.assets WHERE id = ${id} AND project_id = ${projectId} FOR UPDATE`;
    if (locked.length === 0) return null;
    return tx.asset.findUnique({ where: { id }, omit: { embedding: true } });
  }

  /** Locks the project's rows among `ids` (in id order, so concurrent batches cannot deadlock) and returns them. */
  async lockManyInProject(tx: Tx, projectId: string, ids: readonly string[]): Promise<AssetRow[]> {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM assets.assets WHERE id = ANY(${[...ids]}::text[]) AND project_id = ${projectId}
       ORDER BY id FOR UPDATE`;
    if (locked.length === 0) return [];
    return tx.asset.findMany({ where: { id: { in: locked.map((r) => r.id) } }, omit: { embedding: true } });
  }
}
