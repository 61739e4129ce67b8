import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { CREDIT_LEDGER, RecordingCreditLedger } from './credits/credit-ledger';
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
    // The creative-unit step replaces this with the balance-keeping ledger.
    { provide: CREDIT_LEDGER, useClass: RecordingCreditLedger },
  ],
  exports: [JobsService, JobTransitions, JobsApiService],
})
export class JobCoreModule {}
