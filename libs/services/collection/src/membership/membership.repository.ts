import { Injectable } from '@nestjs/common';
import type { Collection, Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;
export type ItemKind = 'asset' | 'model';

/**
 * Membership rows and the counts on the collection row. Each change is one
 * statement for the whole batch, and counts move by the rows that statement
 * actually inserted or deleted — exact under concurrent adds and removes of
 * the same ids, where counting the request would drift.
 */
@Injectable()
export class MembershipRepository {
  /** Inserts the pairs not already there; returns how many were new. */
  async add(tx: Tx, collectionId: string, kind: ItemKind, ids: readonly string[], at: Date): Promise<number> {
    const result =
      kind === 'asset'
        ? await tx.collectionAsset.createMany({
            data: ids.map((assetId) => ({ collectionId, assetId, addedAt: at })),
            skipDuplicates: true,
          })
        : await tx.collectionModel.createMany({
            data: ids.map((modelId) => ({ collectionId, modelId, addedAt: at })),
            skipDuplicates: true,
          });
    return result.count;
  }

  /** Deletes the pairs that are there; returns how many were. */
  async remove(tx: Tx, collectionId: string, kind: ItemKind, ids: readonly string[]): Promise<number> {
    const result =
      kind === 'asset'
        ? await tx.collectionAsset.deleteMany({ where: { collectionId, assetId: { in: [...ids] } } })
        : await tx.collectionModel.deleteMany({ where: { collectionId, modelId: { in: [...ids] } } });
    return result.count;
  }

  /** Moves the kind's count by `delta` (and updatedAt); undefined if the collection is gone. */
  async adjustCount(
    tx: Tx,
    collectionId: string,
    kind: ItemKind,
    delta: number,
    at: Date,
  ): Promise<Collection | undefined> {
    const field = kind === 'asset' ? 'assetCount' : 'modelCount';
    const [row] = await tx.collection.updateManyAndReturn({
      where: { id: collectionId },
      data: { [field]: { increment: delta }, updatedAt: at },
    });
    return row;
  }
}
