/** A job.succeeded payload as job-service publishes it, with a nested output (for the payload specs). */
export const JOB_SUCCEEDED_SAMPLE = {
  jobId: 'job_01ABC',
  jobType: 'pixelate',
  kind: 'generation',
  status: 'success',
  teamId: 'team_1',
  projectId: 'proj_1',
  progress: 1,
  output: { assetIds: ['asset_1'], model: { id: 'm' } },
} as const;
