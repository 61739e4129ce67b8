import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { JobDataModule } from './job-data.module';
import { JobPrisma } from './job.prisma';
import { JOB_SCHEMA, JOB_SERVICE } from './job.schema';

/** Jobs, their state machine and the creative-unit ledger. Features arrive as folders beside this module. */
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
})
export class JobServiceModule {}
