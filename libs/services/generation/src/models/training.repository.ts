import { Injectable } from '@nestjs/common';
import { GenerationPrisma } from '../generation.prisma';
import { Prisma } from '../generated/prisma/client';
import type { ModelRow } from './model.view';

type Tx = Prisma.TransactionClient;

/**
 * A model's training state (status, training job, attempt, progress, stats, artifacts). Every
 * change is conditional on the state it expects, so a late or repeated fact, or a cancel
 * meanwhile, changes nothing (TrainingService, TrainingFactsController).
 */
@Injectable()
export class TrainingRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  /** The asset ids of the model's training images, in their order. */
  async imageIds(modelId: string): Promise<string[]> {
    const rows = await this.prisma.modelTrainingImage.findMany({
      where: { modelId },
      orderBy: [{ createdAt: 'asc' }, { assetId: 'asc' }],
      select: { assetId: true },
    });
    return rows.map((r) => r.assetId);
  }

  /** Reserves the model for attempt `attempt` when its status is one of `from`; false when it is not (already training). */
  async reserve(
    modelId: string,
    from: readonly string[],
    attempt: string,
    parameters: unknown,
  ): Promise<boolean> {
    const reserved = await this.prisma.model.updateMany({
      where: { id: modelId, status: { in: [...from] } },
      data: {
        status: 'training',
        trainingJobId: null,
        trainingAttempt: attempt,
        parameters: parameters as Prisma.InputJsonValue,
        trainingProgress: { stage: 'pending', progress: 0, updatedAt: Date.now() },
        updatedAt: new Date(),
      },
    });
    return reserved.count > 0;
  }

  /** Gives the model back the training state it had before a reservation whose job could not be created. */
  async restore(
    row: Pick<ModelRow, 'id' | 'status' | 'trainingJobId' | 'trainingAttempt' | 'trainingProgress'>,
  ): Promise<void> {
    await this.prisma.model.update({
      where: { id: row.id },
      data: {
        status: row.status,
        trainingJobId: row.trainingJobId,
        trainingAttempt: row.trainingAttempt,
        trainingProgress: row.trainingProgress ?? Prisma.DbNull,
      },
    });
  }

  /** Records the job of reservation `attempt`; true too when a fact adopted that job first. False when released meanwhile. */
  async recordJob(modelId: string, attempt: string, jobId: string): Promise<boolean> {
    const recorded = await this.prisma.model.updateMany({
      where: {
        id: modelId,
        OR: [{ status: 'training', trainingJobId: null, trainingAttempt: attempt }, { trainingJobId: jobId }],
      },
      data: { trainingJobId: jobId },
    });
    return recorded.count > 0;
  }

  /** Marks the training canceled, if the model still trains with `jobId` (null: a reservation with no job recorded). */
  async markCanceled(modelId: string, jobId: string | null): Promise<void> {
    await this.prisma.model.updateMany({
      where: { id: modelId, status: 'training', trainingJobId: jobId },
      data: { status: 'training-canceled', updatedAt: new Date() },
    });
  }

  // On the consumer's transaction (training facts)

  find(tx: Tx, modelId: string): Promise<ModelRow | null> {
    return tx.model.findUnique({ where: { id: modelId } });
  }

  /** A fast trainer's fact adopts the job of the reservation `attempt` the route has not recorded yet. */
  async adopt(tx: Tx, modelId: string, attempt: string | null, jobId: string): Promise<void> {
    await tx.model.updateMany({
      where: { id: modelId, status: 'training', trainingJobId: null, trainingAttempt: attempt },
      data: { trainingJobId: jobId },
    });
  }

  /** The progress of the training of `jobId`, while the model trains with it. */
  async setProgress(
    tx: Tx,
    modelId: string,
    jobId: string,
    progress: Record<string, unknown>,
  ): Promise<void> {
    await tx.model.updateMany({
      where: { id: modelId, trainingJobId: jobId, status: 'training' },
      data: { trainingProgress: progress as Prisma.InputJsonValue },
    });
  }

  /** The outcome of the training of `jobId` while the model trains with it (or already shows `status`); false otherwise. */
  async finish(
    tx: Tx,
    modelId: string,
    jobId: string,
    status: string,
    data: { trainingProgress: object; trainingStats: object; artifacts?: object; updatedAt: Date },
  ): Promise<boolean> {
    const changed = await tx.model.updateMany({
      where: { id: modelId, trainingJobId: jobId, status: { in: ['training', status] } },
      data: {
        status,
        trainingProgress: data.trainingProgress as Prisma.InputJsonValue,
        trainingStats: data.trainingStats as Prisma.InputJsonValue,
        ...(data.artifacts ? { artifacts: data.artifacts as Prisma.InputJsonValue } : {}),
        updatedAt: data.updatedAt,
      },
    });
    return changed.count > 0;
  }
}
