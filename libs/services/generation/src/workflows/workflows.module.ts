import { Module } from '@nestjs/common';
import { GenerationDataModule } from '../generation-data.module';
import { GenerateModule } from '../generate/generate.module';
import { GenerationMessagingModule } from '../generation-messaging.module';
import { ModelsModule } from '../models/models.module';
import { RunState } from './run/run-state';
import { RunWorkflow } from './run/run-workflow';
import { StepFacts } from './run/step-facts';
import { StepStarter } from './run/step-starter';
import { WorkflowRunRepository } from './run/workflow-run.repository';
import { WorkflowRunnerController } from './run/workflow-runner.controller';
import { WorkflowSteps } from './run/workflow-steps';
import { WorkflowRepository } from './workflow.repository';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsService } from './workflows.service';

/** Workflows (`/v1/workflows*`, docs/workflows.md): the stored graphs, their runs and the runner of `workflow` jobs. */
@Module({
  imports: [GenerationDataModule, GenerationMessagingModule, ModelsModule, GenerateModule],
  controllers: [WorkflowsController, WorkflowRunnerController],
  providers: [WorkflowRepository, WorkflowsService, WorkflowRunRepository, WorkflowSteps, RunState, RunWorkflow, StepStarter, StepFacts],
  exports: [StepFacts],
})
export class WorkflowsModule {}
