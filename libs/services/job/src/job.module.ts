import { Module } from '@nestjs/common';
import { CreditAlertsController } from './credits/alerts/credit-alerts.controller';
import { CreditPlanAdminController } from './credits/plans/credit-plan.admin.controller';
import { CreditUsageController } from './credits/usage/credit-usage.controller';
import { UsagesController } from './credits/usages/usages.controller';
import { JobsApiModule } from './internal/jobs-api.module';
import { InternalJobsController } from './internal/internal-jobs.controller';
import { JobCoreModule } from './job-core.module';
import { JobsController } from './jobs/jobs.controller';
import { JobReportsController } from './reports/job-reports.controller';

/**
 * job-service: the one owner of job state and the one producer of job
 * lifecycle facts. Public routes `/v1/jobs*`, the internal JobsApi (in-process
 * through JOBS_API, over HTTP at `/internal/v1/jobs`), and the consumer of
 * executors' reports. Creative units: the ledger charged and refunded inside
 * the job's transactions, team usage and credit alerts (`/v1/teams/{teamId}/…`)
 * and the operator's credit plans (`/admin/v1/teams/{teamId}/credit-plan`).
 */
@Module({
  imports: [JobCoreModule, JobsApiModule],
  controllers: [
    JobsController,
    InternalJobsController,
    JobReportsController,
    CreditUsageController,
    UsagesController,
    CreditAlertsController,
    CreditPlanAdminController,
  ],
})
export class JobServiceModule {}
