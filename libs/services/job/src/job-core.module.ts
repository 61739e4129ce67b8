import { Module } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { MessagingModule } from '@genasset/messaging';
import { CreditAlertSettings } from './credits/alerts/credit-alert-settings';
import { CreditAlerts } from './credits/alerts/credit-alerts';
import { CREDIT_LEDGER, TeamCreditLedger } from './credits/credit-ledger';
import { CreditRepository } from './credits/credit.repository';
import { CREDITS_CONFIG, loadCreditsConfig } from './credits/credits.config';
import { AdminTokenGate } from './credits/plans/admin-token.gate';
import { PutCreditPlan } from './credits/plans/put-credit-plan';
import { CreditUsage } from './credits/usage/credit-usage';
import { UsagesRepository } from './credits/usages/usages.repository';
import { UsagesService } from './credits/usages/usages.service';
import { JobsApiService } from './internal/jobs-api.service';
import { CreateJob } from './jobs/create-job';
import { JobTransitions } from './jobs/job-transitions';
import { JobRepository } from './jobs/job.repository';
import { JobsService } from './jobs/jobs.service';
import { JobDataModule } from './job-data.module';
import { JobPrisma } from './job.prisma';
import { JOB_SCHEMA, JOB_SERVICE } from './job.schema';

/** The job-service's logic and data access, shared by its controllers and the in-process JobsApi. */
@Module({
  imports: [
    JobDataModule,
    MessagingModule.forService({
      schema: JOB_SCHEMA.schema,
      producer: JOB_SERVICE,
      consumer: JOB_SERVICE,
      // The reports' handlers send raw SQL only (the job's lock and change, the refund, the outbox):
      // their transactions run on the driver, without Prisma's interactive transaction around them.
      consumerTransactions: 'driver',
      prismaToken: JobPrisma,
      imports: [JobDataModule],
    }),
  ],
  providers: [
    JobRepository,
    JobTransitions,
    CreateJob,
    JobsService,
    JobsApiService,
    // Creative units (docs/credits.md): settings, ledger, alerts, plans, usage.
    {
      provide: CREDITS_CONFIG,
      useFactory: (env: NodeJS.ProcessEnv) => loadCreditsConfig(env),
      inject: [PROCESS_ENV],
    },
    CreditRepository,
    CreditAlerts,
    { provide: CREDIT_LEDGER, useClass: TeamCreditLedger },
    PutCreditPlan,
    CreditAlertSettings,
    CreditUsage,
    UsagesRepository,
    UsagesService,
    AdminTokenGate,
  ],
  exports: [
    JobsService,
    JobTransitions,
    JobsApiService,
    PutCreditPlan,
    CreditAlertSettings,
    CreditUsage,
    UsagesService,
    AdminTokenGate,
  ],
})
export class JobCoreModule {}
