import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { CreateJobOutputs } from './create-job-outputs';
import { JobOutputsController } from './job-outputs.controller';
import { JobOutputsRepository } from './job-outputs.repository';

/**
 * Outputs of jobs (claim check, docs/architecture.md "Services and ownership"): executors store files and publish
 * `job.outputs.produced`; this module makes the assets (right type, parent and
 * root links, `asset.created`) and reports `job.report.succeeded` with their
 * ids in the same transaction.
 */
@Module({
  imports: [AssetCoreModule],
  controllers: [JobOutputsController],
  providers: [CreateJobOutputs, JobOutputsRepository],
})
export class JobOutputsModule {}
