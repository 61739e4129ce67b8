import { histogram } from '@genasset/observability';

/**
 * Creation to final state of every job that ends here, by job type and final
 * status (success, failure, canceled). Observed when the final transition is
 * applied; a transaction rolled back afterwards and retried would count the
 * job twice, which is rare and only nudges a distribution.
 */
export const jobDuration = histogram({
  name: 'job_duration_seconds',
  help: 'Jobs from creation to final state, by job type and final status',
  labelNames: ['job_type', 'status'] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
});

export function observeJobFinished(
  job: { jobType: string; status: string; createdAt: Date },
  at: Date,
): void {
  jobDuration.observe(
    { job_type: job.jobType, status: job.status },
    Math.max(0, (at.getTime() - job.createdAt.getTime()) / 1000),
  );
}
