import { Inject, Injectable } from '@nestjs/common';
import { JOBS_API, type JobsApi, type JobStatus, type JobView, type TenantRef } from '@genasset/contracts';
import { GENERATION_CONFIG, type GenerationConfig } from '../../generation.config';

const FINAL: ReadonlySet<JobStatus> = new Set(['success', 'failure', 'canceled']);

/**
 * Upstream answers caption, describe-style, embed, prompt and translate with
 * their result. Here every generation is a job run by an executor, so these
 * requests wait for their job — at most GENERATION_RESULT_WAIT, polling
 * job-service with a growing interval — and answer with the job as it is then.
 */
@Injectable()
export class ResultWait {
  constructor(
    @Inject(JOBS_API) private readonly jobs: JobsApi,
    @Inject(GENERATION_CONFIG) private readonly config: GenerationConfig,
  ) {}

  async until(tenant: TenantRef, job: JobView): Promise<JobView> {
    const deadline = Date.now() + this.config.GENERATION_RESULT_WAIT;
    let current = job;
    let interval = 100;
    while (!FINAL.has(current.status) && Date.now() < deadline) {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(interval, Math.max(0, deadline - Date.now()))),
      );
      interval = Math.min(interval * 1.5, 1000);
      current = (await this.jobs.getJob(tenant, job.jobId)) ?? current;
    }
    return current;
  }
}
