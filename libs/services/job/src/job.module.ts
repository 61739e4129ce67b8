import { Module } from '@nestjs/common';
import { JobsApiModule } from './internal/jobs-api.module';
import { InternalJobsController } from './internal/internal-jobs.controller';
import { JobCoreModule } from './job-core.module';
import { JobsController } from './jobs/jobs.controller';
import { JobReportsController } from './reports/job-reports.controller';

/**
 * job-service: the one owner of job state and the one producer of job
 * lifecycle facts. Public routes `/v1/jobs*`, the internal JobsApi (in-process
 * through JOBS_API, over HTTP at `/internal/v1/jobs`), and the consumer of
 * executors' reports. The creative-unit ledger arrives beside these folders.
 */
@Module({
  imports: [JobCoreModule, JobsApiModule],
  controllers: [JobsController, InternalJobsController, JobReportsController],
})
export class JobServiceModule {}
