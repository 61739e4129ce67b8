import { Module } from '@nestjs/common';
import { GenerationDataModule } from './generation-data.module';
import { GenerationMessagingModule } from './generation-messaging.module';
import { GenerateModule } from './generate/generate.module';
import { JobFactsController } from './job-facts.controller';
import { ModelsApiModule } from './models-api/models-api.module';
import { ModelsModule } from './models/models.module';
import { RecommendationsModule } from './recommendations/recommendations.module';
import { WorkflowsModule } from './workflows/workflows.module';

/**
 * Generation requests (`generate/`: every POST /v1/generate/* route), models,
 * training images. Features arrive as folders beside this module.
 */
@Module({
  imports: [
    GenerationDataModule,
    GenerationMessagingModule,
    ModelsApiModule,
    ModelsModule,
    GenerateModule,
    RecommendationsModule,
    WorkflowsModule,
  ],
  controllers: [JobFactsController],
})
export class GenerationServiceModule {}
