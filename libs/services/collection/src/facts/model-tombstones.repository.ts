import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/**
 * What model deletion does to collections, and the memory of it (the model
 * counterpart of AssetTombstones): the model leaves every collection of its
 * project, counts follow, and it is remembered so a racing add cannot bring it back.
 */
@Injectable()
export class ModelTombstones {
  async detach(tx: Tx, model: { modelId: string; projectId: string }, deletedAt: Date): Promise<void> {
    const now = new Date();
    await tx.deletedModel.createMany({
      data: [{ modelId: model.modelId, projectId: model.projectId, deletedAt }],
      skipDuplicates: true,
    });
    // Collections locked first, in id order, as membership changes do: no deadlock between the two.
    await tx.$queryRaw`
      SELECT c.id FROM collections.collections c
       WHERE c.project_id = ${model.projectId}
         AND EXISTS (SELECT 1 FROM collections.collection_models cm
                      WHERE cm.collection_id = c.id AND cm.model_id = ${model.modelId})
       ORDER BY c.id
         FOR UPDATE`;
    // The rows actually deleted drive the decrements (a concurrent removal is not counted twice).
    await tx.$executeRaw`
      WITH removed AS (
        DELETE FROM collections.collection_models cm
         USING collections.collections c
         WHERE cm.model_id = ${model.modelId}
           AND c.id = cm.collection_id
           AND c.project_id = ${model.projectId}
        RETURNING cm.collection_id
      )
      UPDATE collections.collections c
         SET model_count = c.model_count - 1, updated_at = ${now}
        FROM removed
       WHERE c.id = removed.collection_id`;
  }

  /** Which of `modelIds` this service has seen deleted. */
  async deletedAmong(tx: Tx, modelIds: readonly string[]): Promise<string[]> {
    const rows = await tx.deletedModel.findMany({
      where: { modelId: { in: [...modelIds] } },
      select: { modelId: true },
    });
    return rows.map((r) => r.modelId);
  }
}
