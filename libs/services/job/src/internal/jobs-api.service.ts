import { Injectable } from '@nestjs/common';
import {
  InternalApiError,
  type CreateJobCommand,
  type JobsApi,
  type JobView,
  type TenantRef,
} from '@genasset/contracts';
import { CreateJob } from '../jobs/create-job';
import { JobTransitions } from '../jobs/job-transitions';
import { JobRepository } from '../jobs/job.repository';
import { toJobView } from '../jobs/job.view';

/**
 * `JobsApi` in the job-service's own process: what `JOBS_API` resolves to for
 * every service of the process, and what `/internal/v1/jobs` serves to the
 * others. Errors are `InternalApiError`s, so a caller handles them the same
 * whether the call was local or went over HTTP.
 */
@Injectable()
export class JobsApiService implements JobsApi {
  constructor(
    private readonly createJobUseCase: CreateJob,
    private readonly jobs: JobRepository,
    private readonly transitions: JobTransitions,
  ) {}

  async createJob(command: CreateJobCommand): Promise<JobView> {
    return toJobView(await this.createJobUseCase.execute(command));
  }

  async getJob(tenant: TenantRef, jobId: string): Promise<JobView | undefined> {
    const job = await this.jobs.findInScope({ teamId: tenant.teamId, projectId: tenant.projectId }, jobId);
    return job ? toJobView(job) : undefined;
  }

  async cancelJob(tenant: TenantRef, jobId: string): Promise<JobView | undefined> {
    const scope = { teamId: tenant.teamId, projectId: tenant.projectId };
    const outcome = await this.jobs.transaction((tx) =>
      this.transitions.apply(tx, jobId, { type: 'cancel' }, scope),
    );
    if (outcome.kind === 'missing') return undefined;
    if (outcome.kind !== 'applied')
      throw new InternalApiError(
        409,
        'conflict',
        `Job ${jobId} cannot be canceled: it is already ${outcome.job.status}`,
        {
          jobId,
          status: outcome.job.status,
        },
      );
    return toJobView(outcome.job);
  }

  async modelJobCounts(tenant: TenantRef, modelIds: readonly string[]): Promise<Record<string, number>> {
    return this.jobs.modelJobCounts(tenant.teamId, tenant.projectId, [...new Set(modelIds)]);
  }
}
