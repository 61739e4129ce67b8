import { Injectable } from '@nestjs/common';
import { GenerationPrisma } from '../generation.prisma';
import type { Prisma } from '../generated/prisma/client';
import type { ModelRow } from './model.view';

type Tx = Prisma.TransactionClient;
export type TrainingImageRow = Prisma.ModelTrainingImageGetPayload<object>;

/** Model rows of the registry and their training-image links (generation.models, model_training_images). */
@Injectable()
export class ModelsRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  /** A row change and its fact (outbox) commit together. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  find(id: string): Promise<ModelRow | null> {
    return this.prisma.model.findUnique({ where: { id } });
  }

  /** Who may read each of `ids` (their project and privacy). */
  visibility(ids: readonly string[]): Promise<Pick<ModelRow, 'id' | 'projectId' | 'privacy'>[]> {
    return this.prisma.model.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, projectId: true, privacy: true },
    });
  }

  /** Newest first: `take` rows matching `where`. */
  page(where: Prisma.ModelWhereInput, take: number): Promise<ModelRow[]> {
    return this.prisma.model.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
  }

  create(data: Prisma.ModelUncheckedCreateInput): Promise<ModelRow> {
    return this.prisma.model.create({ data });
  }

  update(id: string, data: Prisma.ModelUpdateInput): Promise<ModelRow> {
    return this.prisma.model.update({ where: { id }, data });
  }

  /** Deletes the model unless it trains (its training-image links cascade); false when it trains or is gone. */
  async deleteUnlessTraining(tx: Tx, id: string): Promise<boolean> {
    const gone = await tx.model.deleteMany({ where: { id, status: { not: 'training' } } });
    return gone.count > 0;
  }

  /** Conditional on the tags read (`expected`), so two concurrent edits cannot overwrite each other silently. */
  async replaceTags(id: string, expected: readonly string[], next: readonly string[]): Promise<boolean> {
    const changed = await this.prisma.model.updateMany({
      where: { id, tags: { equals: [...expected] } },
      data: { tags: [...next], updatedAt: new Date() },
    });
    return changed.count > 0;
  }

  /** Locks the model row for the rest of `tx` and returns its status (undefined when gone). */
  async lockStatus(tx: Tx, id: string): Promise<string | undefined> {
    const locked = await tx.$queryRaw<
      { status: string }[]
    >`SELECT status FROM generation.models WHERE id = ${id} FOR UPDATE`;
    return locked[0]?.status;
  }

  /** The registry's copy of collection membership (`collection_ids`): idempotent, append only if absent. */
  async addToCollection(
    tx: Tx,
    projectId: string,
    collectionId: string,
    modelIds: readonly string[],
  ): Promise<void> {
    await tx.$executeRaw`
      UPDATE generation.models SET collection_ids = array_append(collection_ids, ${collectionId})
       WHERE project_id = ${projectId} AND id = ANY(${[...modelIds]}::text[]) AND NOT (${collectionId} = ANY(collection_ids))`;
  }

  /** Removes the collection from `modelIds` (every model of the project when omitted), where present. */
  async removeFromCollection(
    tx: Tx,
    projectId: string,
    collectionId: string,
    modelIds?: readonly string[],
  ): Promise<void> {
    if (modelIds)
      await tx.$executeRaw`
        UPDATE generation.models SET collection_ids = array_remove(collection_ids, ${collectionId})
         WHERE project_id = ${projectId} AND id = ANY(${[...modelIds]}::text[]) AND ${collectionId} = ANY(collection_ids)`;
    else
      await tx.$executeRaw`
        UPDATE generation.models SET collection_ids = array_remove(collection_ids, ${collectionId})
         WHERE project_id = ${projectId} AND ${collectionId} = ANY(collection_ids)`;
  }

  // Training images

  trainingImages(modelId: string): Promise<TrainingImageRow[]> {
    return this.prisma.modelTrainingImage.findMany({
      where: { modelId },
      orderBy: [{ createdAt: 'asc' }, { assetId: 'asc' }],
    });
  }

  /** How many training images each of `modelIds` has (one query). */
  async trainingImageCounts(modelIds: readonly string[]): Promise<Map<string, number>> {
    const counts = await this.prisma.modelTrainingImage.groupBy({
      by: ['modelId'],
      where: { modelId: { in: [...modelIds] } },
      _count: true,
    });
    return new Map(counts.map((c) => [c.modelId, c._count]));
  }

  /** The first `limit` training images of each of `modelIds`, in their order (one query). */
  firstTrainingImages(modelIds: readonly string[], limit: number): Promise<TrainingImageRow[]> {
    return this.prisma.$queryRaw<TrainingImageRow[]>`
      SELECT model_id AS "modelId", asset_id AS "assetId", name, description, created_at AS "createdAt"
        FROM (SELECT t.*, row_number() OVER (PARTITION BY model_id ORDER BY created_at, asset_id) AS rn
                FROM generation.model_training_images t WHERE model_id = ANY(${[...modelIds]}::text[])) ranked
       WHERE rn <= ${limit}
       ORDER BY model_id, rn`;
  }

  /** The model's training images, and how many of `assetIds` are among them. */
  async trainingImageRoom(
    modelId: string,
    assetIds: readonly string[],
    tx: Tx = this.prisma,
  ): Promise<{ count: number; present: number }> {
    const count = await tx.modelTrainingImage.count({ where: { modelId } });
    const present = assetIds.length
      ? await tx.modelTrainingImage.count({ where: { modelId, assetId: { in: [...assetIds] } } })
      : 0;
    return { count, present };
  }

  /** Links `assetIds` (those not linked yet) and touches the model's updatedAt. */
  async addTrainingImages(tx: Tx, modelId: string, assetIds: readonly string[], name: string): Promise<void> {
    await tx.modelTrainingImage.createMany({
      data: assetIds.map((assetId) => ({ modelId, assetId, name })),
      skipDuplicates: true,
    });
    await tx.model.update({ where: { id: modelId }, data: { updatedAt: new Date() } });
  }

  async removeTrainingImage(modelId: string, assetId: string): Promise<boolean> {
    const deleted = await this.prisma.modelTrainingImage.deleteMany({ where: { modelId, assetId } });
    return deleted.count > 0;
  }
}
