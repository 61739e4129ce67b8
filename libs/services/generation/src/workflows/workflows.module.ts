import { Module } from '@nestjs/common';
import { GenerationDataModule } from '../generation-data.module';
import { ModelsModule } from '../models/models.module';
import { WorkflowRepository } from './workflow.repository';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsService } from './workflows.service';

/** Workflows (`/v1/workflows*`, docs/workflows.md). */
@Module({
  imports: [GenerationDataModule, ModelsModule],
  controllers: [WorkflowsController],
  providers: [WorkflowRepository, WorkflowsService],
})
export class WorkflowsModule {}
