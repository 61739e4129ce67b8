import {
  JobCanceled,
  JobCreated,
  JobFailed,
  JobStarted,
  JobSucceeded,
  type EventEnvelope,
  type JobKind,
  type JobLifecycleData,
} from '@genasset/contracts';
import type { ProjectEventType } from './event-types';
import type { PublicEvent } from './public-event';

type JobFact =
  | typeof JobCreated.type
  | typeof JobStarted.type
  | typeof JobSucceeded.type
  | typeof JobFailed.type
  | typeof JobCanceled.type;

/**
 * Which job facts become which public events, per job kind. A missing entry
 * sends nothing: generations have no started or cancelled event (spec:
 * "Cancelled generations send no event"), downloads none for start or cancel,
 * trainings start at `started` (their `created` is internal queueing).
 */
export const JOB_EVENT_TABLE: Readonly<
  Record<JobKind, Readonly<Partial<Record<JobFact, ProjectEventType>>>>
> = {
  generation: {
    [JobCreated.type]: 'generation.created',
    [JobSucceeded.type]: 'generation.completed',
    [JobFailed.type]: 'generation.failed',
  },
  'asset-download': {
    [JobCreated.type]: 'asset.download.created',
    [JobSucceeded.type]: 'asset.download.completed',
    [JobFailed.type]: 'asset.download.failed',
  },
  'model-download': {
    [JobCreated.type]: 'model.download.created',
    [JobSucceeded.type]: 'model.download.completed',
    [JobFailed.type]: 'model.download.failed',
  },
  'model-training': {
    [JobStarted.type]: 'model.training.started',
    [JobSucceeded.type]: 'model.training.completed',
    [JobFailed.type]: 'model.training.failed',
    [JobCanceled.type]: 'model.training.cancelled',
  },
};

/** The public event a job fact causes, owned by the job's project; undefined when it causes none. */
export function publicJobEvent(envelope: EventEnvelope<JobLifecycleData>): PublicEvent | undefined {
  const job = envelope.data;
  const type = JOB_EVENT_TABLE[job.kind]?.[envelope.type as JobFact];
  if (!type) return undefined;
  return {
    sourceEventId: envelope.id,
    ownerType: 'project',
    ownerId: job.projectId,
    type,
    data: jobEventData(type, job),
  };
}

/** `data` per family, exactly the spec's "Payload shapes of data" table: optional fields only when they apply. */
export function jobEventData(type: ProjectEventType, job: JobLifecycleData): Record<string, unknown> {
  if (type.startsWith('generation.')) {
    return { jobId: job.jobId, jobType: job.jobType, ...(job.modelId ? { modelId: job.modelId } : {}) };
  }
  if (type.startsWith('asset.download.') || type.startsWith('model.download.')) {
    const downloadUrl = type.endsWith('.completed') ? job.output?.downloadUrl : undefined;
    return { jobId: job.jobId, ...(downloadUrl ? { downloadUrl } : {}) };
  }
  // model.training.*: the model in summary form as the job reports it; a fact
  // carrying only the model's id still tells the receiver which model it was.
  return { model: job.output?.model ?? (job.modelId ? { id: job.modelId } : {}) };
}
