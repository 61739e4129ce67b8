import { Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { GenerationPrisma } from '../../generation.prisma';
import type { ModelTrainingImage, Prisma } from '../../generated/prisma/client';

export interface TrainingPair {
  sourceId: string;
  targetId: string;
  instruction: string;
}

/**
 * Changes to a model's training images and pairs. Each runs with the model
 * row locked and refuses while the model trains (PUT /train reserves the row
 * the same way), so a training never starts on half a change.
 */
@Injectable()
export class TrainingImageRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  /** The captions (descriptions) of a model's training images, in their order. */
  captions(modelId: string): Promise<{ assetId: string; description: string }[]> {
    return this.prisma.modelTrainingImage.findMany({
      where: { modelId },
      orderBy: [{ createdAt: 'asc' }, { assetId: 'asc' }],
      select: { assetId: true, description: true },
    });
  }

  /** `oldId` gives way to `newId` (its place in the order, its name unless a new one is given); pairs follow. */
  replace(modelId: string, oldId: string, newId: string, name: string | undefined): Promise<ModelTrainingImage> {
    return this.locked(modelId, async (tx) => {
      const old = await tx.modelTrainingImage.findUnique({ where: { modelId_assetId: { modelId, assetId: oldId } } });
      if (!old) throw ApiError.notFound(`training image ${oldId} not found`, oldId);
      if (newId !== oldId && (await tx.modelTrainingImage.count({ where: { modelId, assetId: newId } })))
        throw ApiError.validation([{ field: 'assetId', messages: [`asset ${newId} is already a training image of this model`] }]);
      await tx.modelTrainingImage.delete({ where: { modelId_assetId: { modelId, assetId: oldId } } });
      const created = await tx.modelTrainingImage.create({
        data: { modelId, assetId: newId, name: name ?? old.name, description: '', createdAt: old.createdAt },
      });
      const pairs = await this.pairsOf(tx, modelId);
      await this.savePairs(tx, modelId, pairs.map((p) => ({ ...p, sourceId: p.sourceId === oldId ? newId : p.sourceId, targetId: p.targetId === oldId ? newId : p.targetId })));
      return created;
    });
  }

  /** Removes every one of `assetIds` or none: 404 naming the first that is not a training image. */
  remove(modelId: string, assetIds: readonly string[]): Promise<void> {
    return this.locked(modelId, async (tx) => {
      const present = await tx.modelTrainingImage.findMany({ where: { modelId, assetId: { in: [...assetIds] } }, select: { assetId: true } });
      const have = new Set(present.map((p) => p.assetId));
      const missing = assetIds.find((id) => !have.has(id));
      if (missing) throw new ApiError(404, 'not_found', `training image ${missing} not found`, { id: missing, field: 'ids' });
      await tx.modelTrainingImage.deleteMany({ where: { modelId, assetId: { in: [...assetIds] } } });
      const gone = new Set(assetIds);
      const pairs = await this.pairsOf(tx, modelId);
      await this.savePairs(tx, modelId, pairs.filter((p) => !gone.has(p.sourceId) && !gone.has(p.targetId)));
    });
  }

  /** Replaces the pairs; each side must be a training image of the model (400 naming the pair's field otherwise). */
  setPairs(modelId: string, pairs: TrainingPair[]): Promise<TrainingPair[]> {
    return this.locked(modelId, async (tx) => {
      const ids = [...new Set(pairs.flatMap((p) => [p.sourceId, p.targetId]))];
      const present = await tx.modelTrainingImage.findMany({ where: { modelId, assetId: { in: ids } }, select: { assetId: true } });
      const have = new Set(present.map((p) => p.assetId));
      const errors = pairs.flatMap((p, i) =>
        (['sourceId', 'targetId'] as const)
          .filter((side) => !have.has(p[side]))
          .map((side) => ({ field: `[${i}].${side}`, messages: [`${p[side]} is not a training image of this model`] })),
      );
      if (errors.length) throw ApiError.validation(errors);
      await this.savePairs(tx, modelId, pairs);
      return pairs;
    });
  }

  private async locked<T>(modelId: string, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM generation.models WHERE id = ${modelId} FOR UPDATE`;
      if (rows.length === 0) throw ApiError.notFound(`model ${modelId} not found`, modelId);
      if (rows[0].status === 'training')
        throw ApiError.conflict(`model ${modelId} is training: its training images cannot change now`);
      const result = await work(tx);
      await tx.model.update({ where: { id: modelId }, data: { updatedAt: new Date() } });
      return result;
    });
  }

  private async pairsOf(tx: Prisma.TransactionClient, modelId: string): Promise<TrainingPair[]> {
    const row = await tx.model.findUnique({ where: { id: modelId }, select: { trainingPairs: true } });
    return (row?.trainingPairs ?? []) as unknown as TrainingPair[];
  }

  private savePairs(tx: Prisma.TransactionClient, modelId: string, pairs: TrainingPair[]) {
    return tx.model.update({ where: { id: modelId }, data: { trainingPairs: pairs as unknown as Prisma.InputJsonValue } });
  }
}
