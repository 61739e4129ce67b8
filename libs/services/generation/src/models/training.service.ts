import { Inject, Injectable, Logger } from '@nestjs/common';
import { JOBS_API, prefixedId, type JobsApi, type JobView, type TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { publicError } from '../generate/internal-errors';
import { ModelAccess } from './model-access';
import { TRAINABLE_STATUSES } from './model-types';
import { modelSummary, type ModelRow } from './model.view';
import { ModelsService } from './models.service';
import { TrainingRepository } from './training.repository';

/** What a trainer left in object storage, as the model row keeps it. */
export interface ModelArtifacts {
  trainer: string;
  prefix: string;
  files: { name: string; key: string; size?: number; contentType?: string }[];
  statistics?: Record<string, unknown>;
  /** A backend's training: the backend and the version it made (Replicate `owner/name:<version>`); its weights stay there. */
  backend?: string;
  version?: string;
}

/**
 * Training and export of a model, both as jobs of job-service (it charges,
 * tracks and publishes their lifecycle; the inference worker runs them). The
 * model's own status follows the training job's facts (TrainingFactsController).
 */
@Injectable()
export class TrainingService {
  private readonly logger = new Logger('ModelTraining');

  constructor(
    private readonly training: TrainingRepository,
    private readonly access: ModelAccess,
    private readonly models: ModelsService,
    @Inject(JOBS_API) private readonly jobs: JobsApi,
  ) {}

  async train(
    tenant: TenantRef,
    modelId: string,
    parameters: Record<string, unknown> | undefined,
    dryRun = false,
  ) {
    const row = await this.access.owned(tenant, modelId);
    const images = await this.training.imageIds(row.id);
    if (images.length === 0)
      throw ApiError.validation([
        {
          field: 'trainingImages',
          messages: [
            'the model has no training images: add some with POST /v1/models/{modelId}/training-images',
          ],
        },
      ]);
    // A dry run checks what a real run would (ownership, images, status) and creates nothing.
    if (dryRun) {
      if (row.status === 'training')
        throw ApiError.conflict(`model ${modelId} is already training`, { modelId, status: 'training' });
      return { creativeUnitsCost: 0, creativeUnitsDiscount: 0 };
    }
    const chosen = parameters ?? (row.parameters as Record<string, unknown> | null) ?? {};
    // Reserve the model first: of two concurrent PUT /train only one gets past this update. The
    // attempt names this reservation: its job carries it as idempotency key, so the job's facts
    // are recognised as this training's even before the job id is recorded below.
    const attempt = prefixedId('train');
    if (!(await this.training.reserve(row.id, TRAINABLE_STATUSES, attempt, chosen)))
      throw ApiError.conflict(`model ${modelId} is already training`, { modelId, status: 'training' });
    let job: JobView;
    try {
      job = await this.jobs.createJob({
        tenant,
        jobType: 'model-training',
        kind: 'model-training',
        modelId: row.id,
        input: {
          trainingImages: images,
          parameters: chosen,
          modelType: row.type,
          model: modelSummary({ ...row, status: 'training' }),
          // The backend the model names trains it there (a Replicate training: docs/models.md).
          ...(row.backend ? { backend: row.backend } : {}),
        },
        // Trainings are not priced yet (docs/models.md): free, but a job like any other.
        creativeUnitsCost: 0,
        idempotencyKey: trainingJobKey(row.id, attempt),
      });
    } catch (error) {
      await this.training.restore(row);
      throw publicError(error);
    }
    // A fast trainer's facts may have adopted the job already (TrainingFactsController), and may
    // even have finished the training: that counts as recorded.
    if (!(await this.training.recordJob(row.id, attempt, job.jobId))) {
      // The reservation was released meanwhile (a cancel): the job must not run for nothing.
      await this.jobs.cancelJob(tenant, job.jobId).catch(() => undefined);
      throw ApiError.conflict(`the training of model ${modelId} was canceled while it was being started`, {
        modelId,
      });
    }
    this.logger.log(`model ${row.id}: training job ${job.jobId} created`);
    const { model } = await this.models.get(tenant, row.id);
    return { model, job, creativeUnitsCost: 0, creativeUnitsDiscount: 0 };
  }

  async cancel(tenant: TenantRef, modelId: string) {
    const row = await this.access.owned(tenant, modelId);
    if (row.status === 'training' && !row.trainingJobId) {
      // Reserved by a PUT /train that never recorded its job (it failed midway, or is
      // recording it right now): nothing to cancel in job-service; the reservation is
      // released, and a job's facts would no longer match the model.
      await this.training.markCanceled(row.id, null);
      return this.models.get(tenant, row.id);
    }
    if (row.status !== 'training' || !row.trainingJobId)
      throw ApiError.conflict(`model ${modelId} is not training (status ${row.status})`, {
        modelId,
        status: row.status,
      });
    const job = await this.jobs
      .cancelJob(tenant, row.trainingJobId)
      .catch((e: unknown) => Promise.reject(publicError(e)));
    if (!job) throw ApiError.conflict(`the training job of model ${modelId} is gone`);
    // job-service decided: the job is canceled. The job.canceled fact says the same later (idempotent).
    await this.training.markCanceled(row.id, row.trainingJobId);
    return this.models.get(tenant, row.id);
  }

  async download(tenant: TenantRef, modelId: string): Promise<{ jobId: string }> {
    const row = await this.access.readable(tenant, modelId);
    const artifacts = row.artifacts as ModelArtifacts | null;
    if (row.status !== 'trained' || !artifacts?.files?.length)
      throw ApiError.conflict(`model ${modelId} has no trained files to export (status ${row.status})`, {
        modelId,
        status: row.status,
      });
    const job = await this.jobs
      .createJob({
        tenant,
        jobType: 'model-download',
        kind: 'model-download',
        modelId: row.id,
        input: {
          model: exportManifest(row, artifacts),
          files: artifacts.files,
          ownerProjectId: row.projectId,
        },
        creativeUnitsCost: 0,
      })
      .catch((e: unknown) => Promise.reject(publicError(e)));
    return { jobId: job.jobId };
  }
}

/** The manifest (`model.json` in the archive): what the model is and how it was trained. */
function exportManifest(row: ModelRow, artifacts: ModelArtifacts) {
  return {
    ...modelSummary(row),
    capabilities: row.capabilities,
    parameters: row.parameters,
    trainer: artifacts.trainer,
    statistics: artifacts.statistics,
    exportedAt: new Date().toISOString(),
  };
}

/** The idempotency key of a training reservation's job: unique per model and attempt. */
export function trainingJobKey(modelId: string, attempt: string): string {
  return `model-training:${modelId}:${attempt}`;
}
