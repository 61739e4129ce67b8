import type { JobFlowNode, JobStatus, JobType, JobView } from '@genasset/contracts';
import type { JobRecord } from './job.repository';

/**
 * A job as every API shows it (upstream `GetJobIdResponse.job`): ownerId is the
 * project, authorId the API key that asked for it, dates ISO 8601 with
 * milliseconds in UTC. A failed job's reason is shown as
 * `metadata.output.errorMessage` (the upstream job shape has no error field);
 * a workflow run's steps show as `metadata.flow` (docs/workflows.md).
 */
export function toJobView(job: JobRecord): JobView {
  // A workflow run's steps (reported while it runs, and with its success) are upstream's metadata.flow.
  const { flow, ...output } = job.output as Record<string, unknown>;
  if (job.failureReason) output.errorMessage = job.failureReason;
  return {
    jobId: job.id,
    jobType: job.jobType as JobType,
    status: job.status as JobStatus,
    progress: job.progress,
    ownerId: job.projectId,
    ...(job.authorId ? { authorId: job.authorId } : {}),
    statusHistory: job.history.map((h) => ({ date: h.date.toISOString(), status: h.status as JobStatus })),
    metadata: {
      input: job.input as Record<string, unknown>,
      output,
      assetIds: job.assetIds,
      ...(Array.isArray(flow) ? { flow: flow as JobFlowNode[] } : {}),
    },
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}
