import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/**
 * What asset deletion does to collections, and the memory of it. Every method
 * takes the caller's transaction: the fact handler's (so the effect commits
 * with its inbox mark) or an add's (so the check and the insert see one state).
 */
@Injectable()
export class AssetTombstones {
  /**
   * The asset leaves every collection of its project, counts follow, thumbnails
   * showing it are cleared, and it is remembered as deleted. Each statement is
   * a no-op the second time, so even outside the inbox this is idempotent.
   */
  async detach(tx: Tx, asset: { assetId: string; projectId: string }, deletedAt: Date): Promise<void> {
    // updatedAt is when this service changed the collection, not when the fact
    // happened: a late fact must not move it behind a user's later update.
    const now = new Date();
    await tx.deletedAsset.createMany({
      data: [{ assetId: asset.assetId, projectId: asset.projectId, deletedAt }],
      skipDuplicates: true,
    });
    // The affected collections are locked first, in id order, as membership
    // changes lock their collection first: the two queue up instead of deadlocking.
    await tx.$queryRaw`
      SELECT c.id FROM collections.collections c
       WHERE c.project_id = ${asset.projectId}
         AND (c.thumbnail_asset_id = ${asset.assetId}
              OR EXISTS (SELECT 1 FROM collections.collection_assets ca
                          WHERE ca.collection_id = c.id AND ca.asset_id = ${asset.assetId}))
       ORDER BY c.id
         FOR UPDATE`;
    // One statement: the rows actually deleted drive the decrements, so a
    // concurrent user removal of the same row cannot be counted twice.
    await tx.$executeRaw`
      WITH removed AS (
        DELETE FROM collections.collection_assets ca
         USING collections.collections c
         WHERE ca.asset_id = ${asset.assetId}
           AND c.id = ca.collection_id
           AND c.project_id = ${asset.projectId}
        RETURNING ca.collection_id
      )
      UPDATE collections.collections c
         SET asset_count = c.asset_count - 1, updated_at = ${now}
        FROM removed
       WHERE c.id = removed.collection_id`;
    await tx.collection.updateMany({
      where: { projectId: asset.projectId, thumbnailAssetId: asset.assetId },
      data: { thumbnailAssetId: null, updatedAt: now },
    });
  }

  /** Which of `assetIds` this service has seen deleted. */
  async deletedAmong(tx: Tx, assetIds: readonly string[]): Promise<string[]> {
    const rows = await tx.deletedAsset.findMany({
      where: { assetId: { in: [...assetIds] } },
      select: { assetId: true },
    });
    return rows.map((r) => r.assetId);
  }
}
