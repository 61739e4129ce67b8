import { Injectable } from '@nestjs/common';
import type { CreateJobCommand, JobsApi, JobView, TenantRef } from '@genasset/contracts';
import { CreateJob } from '../jobs/create-job';
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
  ) {}

  async createJob(command: CreateJobCommand): Promise<JobView> {
    return toJobView(await this.createJobUseCase.execute(command));
  }

  async getJob(tenant: TenantRef, jobId: string): Promise<JobView | undefined> {
    const job = await this.jobs.findInScope({ teamId: tenant.teamId, projectId: tenant.projectId }, jobId);
    return job ? toJobView(job) : undefined;
  }
}
