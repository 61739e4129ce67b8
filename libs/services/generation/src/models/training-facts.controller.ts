import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  JobCanceled,
  JobFailed,
  JobStarted,
  JobSucceeded,
  type EventEnvelope,
  type JobLifecycleData,
} from '@genasset/contracts';
import type { EventContext } from '@genasset/messaging';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import type { Prisma } from '../generated/prisma/client';
import { TrainingRepository } from './training.repository';
import { trainingJobKey, type ModelArtifacts } from './training.service';

type Tx = Prisma.TransactionClient;

/** The model status each final training fact stands for. */
const FINAL: Record<string, string> = {
  [JobSucceeded.type]: 'trained',
  [JobFailed.type]: 'failed',
  [JobCanceled.type]: 'training-canceled',
};

/**
 * How the registry learns a training's outcome: job-service's lifecycle facts
 * of `model-training` jobs (consumed by JobFactsController, which hands them here). Idempotent: the messaging inbox records each fact
 * in `ctx.tx`, and every update is conditional on the model still training
 * with this job, so a late or repeated fact (or one of an older training)
 * changes nothing.
 */
@Injectable()
export class TrainingFactsController {
  private readonly logger = new Logger('ModelTraining');

  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly training: TrainingRepository,
  ) {}

  /** One lifecycle fact of a `model-training` job (JobFactsController hands it over). */
  async fact(envelope: EventEnvelope<JobLifecycleData>, ctx: Pick<EventContext<Tx>, 'tx'>): Promise<void> {
    const job = envelope.data;
    if (job.kind !== 'model-training' || !job.modelId) return;
    const tx = ctx.tx;
    const model = await this.training.find(tx, job.modelId);
    if (!model) return;
    if (model.trainingJobId !== job.jobId) {
      // A fact of another training (an older one, canceled meanwhile) changes nothing.
      if (!isReservationsJob(model, job)) return;
      // PUT /train reserved the model and has not recorded its job yet (a fast trainer got here
      // first): the job's idempotency key names this reservation, so adopt it. Should the route
      // record it first, this changes nothing and the updates below match its record.
      await this.training.adopt(tx, model.id, model.trainingAttempt, job.jobId);
    }
    const now = Date.now();
    const progress = (model.trainingProgress ?? {}) as Record<string, unknown>;
    const startedAt = typeof progress.startedAt === 'number' ? progress.startedAt : now;
    if (envelope.type === JobStarted.type) {
      await this.training.setProgress(tx, model.id, job.jobId, {
        stage: 'running-train',
        progress: job.progress ?? 0,
        startedAt: now,
        updatedAt: now,
      });
      return;
    }
    const status = FINAL[envelope.type];
    const reported = job.output?.model as
      | {
          files?: { name: string; size?: number; contentType?: string }[];
          trainer?: string;
          statistics?: Record<string, unknown>;
          backend?: unknown;
          version?: unknown;
        }
      | undefined;
    // A backend's training (Replicate) leaves no files here, only the version it made there.
    const version = typeof reported?.version === 'string' && reported.version ? reported.version : undefined;
    const artifacts: ModelArtifacts | undefined =
      status === 'trained' && (reported?.files?.length || version)
        ? {
            trainer: reported?.trainer ?? 'unknown',
            prefix: modelFilesPrefix(job.projectId, model.id, job.jobId),
            files: (reported?.files ?? []).map((f) => ({
              ...f,
              key: `${modelFilesPrefix(job.projectId, model.id, job.jobId)}${f.name}`,
            })),
            ...(reported?.statistics ? { statistics: reported.statistics } : {}),
            ...(version ? { version } : {}),
            ...(typeof reported?.backend === 'string' ? { backend: reported.backend } : {}),
          }
        : undefined;
    // The cancel route may already have set training-canceled: that is this fact's outcome too.
    const changed = await this.training.finish(tx, model.id, job.jobId, status, {
      trainingProgress: { stage: 'running-train', progress: job.progress ?? 0, startedAt, updatedAt: now },
      trainingStats: {
        startedAt: new Date(startedAt).toISOString(),
        endedAt: new Date(now).toISOString(),
        // Upstream: "The training duration in seconds".
        trainDuration: (now - startedAt) / 1000,
      },
      ...(artifacts ? { artifacts } : {}),
      updatedAt: new Date(now),
    });
    if (changed) this.logger.log(`model ${model.id}: ${status} (job ${job.jobId})`);
    // The files of the training this one replaces are no longer the model's. Best effort: a
    // redelivered fact finds them gone, and a missed deletion only leaves unreferenced objects.
    const previous = model.artifacts as ModelArtifacts | null;
    if (changed && artifacts && previous?.files?.length && previous.prefix !== artifacts.prefix)
      await this.store.delete(previous.files.map((f) => f.key)).catch((error: unknown) => {
        this.logger.warn(`model ${model.id}: old training files not deleted: ${(error as Error).message}`);
      });
  }
}

/** Whether the job is the one the model's current reservation (PUT /train) is creating. */
function isReservationsJob(
  model: { id: string; status: string; trainingJobId: string | null; trainingAttempt: string | null },
  job: JobLifecycleData,
): boolean {
  return (
    model.status === 'training' &&
    model.trainingJobId === null &&
    model.trainingAttempt !== null &&
    job.idempotencyKey === trainingJobKey(model.id, model.trainingAttempt)
  );
}

/** Where a training job's files live; the inference worker writes them there (docs/models.md). */
export function modelFilesPrefix(projectId: string, modelId: string, jobId: string): string {
  return `models/${projectId}/${modelId}/${jobId}/`;
}
