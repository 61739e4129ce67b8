import { Module } from '@nestjs/common';
import { GenerationDataModule } from '../generation-data.module';
import { GenerationMessagingModule } from '../generation-messaging.module';
import { ProjectScopes } from '../generate/project-scope';
import { CollectionFactsController } from './collection-facts.controller';
import { ModelAccess } from './model-access';
import { ModelRuns } from './model-runs';
import { ModelsController } from './models.controller';
import { ModelsService } from './models.service';
import { TrainingFactsController } from './training-facts.controller';
import { TrainingService } from './training.service';

/** The model registry (`/v1/models*`), training and export (docs/models.md). */
@Module({
  imports: [GenerationDataModule, GenerationMessagingModule],
  controllers: [ModelsController, TrainingFactsController, CollectionFactsController],
  providers: [ProjectScopes, ModelAccess, ModelRuns, ModelsService, TrainingService],
  exports: [ModelAccess, ModelRuns, ModelsService, ProjectScopes],
})
export class ModelsModule {}
