import type {
  EventDefinition,
  JobKind,
  JobLifecycleData,
  JobOutputData,
  JobStatus,
  JobType,
} from '@genasset/contracts';
import type { JobRecord } from './job.repository';

/**
 * The lifecycle fact of a job in its current state: what the webhook
 * dispatcher turns into generation.*, asset.download.*, model.download.* and
 * model.training.* events. `modelId` only when the job runs a model; `output`
 * only the documented fields (assetIds, downloadUrl, model), on success; `idempotencyKey` when the
 * creator gave one (internal: the webhook catalog never forwards it).
 */
export function lifecycleData(
  job: JobRecord,
  extra: { output?: JobOutputData; failureReason?: string } = {},
): JobLifecycleData {
  const output = job.kind === 'model-training' ? withModelSummary(job, extra.output) : extra.output;
  return {
    jobId: job.id,
    jobType: job.jobType as JobType,
    kind: job.kind as JobKind,
    status: job.status as JobStatus,
    teamId: job.teamId,
    projectId: job.projectId,
    progress: job.progress,
    ...(job.modelId ? { modelId: job.modelId } : {}),
    ...(output ? { output } : {}),
    ...(extra.failureReason ? { failureReason: extra.failureReason } : {}),
    ...(job.idempotencyKey ? { idempotencyKey: job.idempotencyKey } : {}),
  };
}

/** The model status a training job's state stands for (upstream model statuses). */
const TRAINING_STATUS: Partial<Record<string, string>> = {
  success: 'trained',
  failure: 'failed',
  canceled: 'training-canceled',
};

/**
 * `model.training.*` webhooks carry the model in summary form (`data.model`).
 * The creator of a training job puts that summary in `input.model`; every fact
 * of the job carries it with `status` following the job (training, trained,
 * failed, training-canceled), merged with what the trainer reported on success.
 */
function withModelSummary(job: JobRecord, output: JobOutputData | undefined): JobOutputData | undefined {
  const summary = (job.input as Record<string, unknown> | null)?.model;
  if (!summary || typeof summary !== 'object') return output;
  const status = TRAINING_STATUS[job.status] ?? 'training';
  return {
    ...output,
    model: { ...(summary as Record<string, unknown>), ...output?.model, status },
  };
}

/** The documented part of an executor's output, as the `job.succeeded` fact carries it. */
export function factOutput(output: Record<string, unknown>): JobOutputData {
  const picked: JobOutputData = {};
  if (Array.isArray(output.assetIds)) picked.assetIds = output.assetIds as string[];
  if (typeof output.downloadUrl === 'string') picked.downloadUrl = output.downloadUrl;
  if (output.model && typeof output.model === 'object')
    picked.model = output.model as Record<string, unknown>;
  return picked;
}

export type LifecycleDefinition = EventDefinition<string, JobLifecycleData>;
