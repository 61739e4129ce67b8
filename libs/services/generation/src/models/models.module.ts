import { Module } from '@nestjs/common';
import { GenerationDataModule } from '../generation-data.module';
import { GenerationMessagingModule } from '../generation-messaging.module';
import { ProjectScopes } from '../generate/project-scope';
import { CollectionFactsController } from './collection-facts.controller';
import { ModelAccess } from './model-access';
import { ModelRuns } from './model-runs';
import { ModelsController } from './models.controller';
import { ModelsRepository } from './models.repository';
import { ModelsService } from './models.service';
import { TrainingFactsController } from './training-facts.controller';
import { TrainingRepository } from './training.repository';
import { TrainingService } from './training.service';
import { PresetRepository } from './presets/preset.repository';
import { ModelCopyController } from './copy/model-copy.controller';
import { ModelCopyRepository } from './copy/model-copy.repository';
import { ModelCopyService } from './copy/model-copy.service';
import { ModelListingController } from './listing/model-listing.controller';
import { ModelListingRepository } from './listing/model-listing.repository';
import { ModelListingService } from './listing/model-listing.service';
import { ModelPageController } from './pages/model-page.controller';
import { ModelPageRepository } from './pages/model-page.repository';
import { ModelPageService } from './pages/model-page.service';
import { ScoresController } from './scores/scores.controller';
import { SearchModelsController } from './search/search-models.controller';
import { SearchModelsRepository } from './search/search-models.repository';
import { SearchModelsService } from './search/search-models.service';
import { ScoresService } from './scores/scores.service';
import { TrainingImageRepository } from './training-images/training-image.repository';
import { TrainingImagesController } from './training-images/training-images.controller';
import { TrainingImagesService } from './training-images/training-images.service';
import { PresetsController } from './presets/presets.controller';
import { PresetsService } from './presets/presets.service';

/** The model registry (`/v1/models*`), training and export (docs/models.md). */
@Module({
  imports: [GenerationDataModule, GenerationMessagingModule],
  controllers: [
    ModelListingController,
    SearchModelsController,
    ModelsController,
    PresetsController,
    ModelPageController,
    TrainingImagesController,
    ScoresController,
    ModelCopyController,
    CollectionFactsController,
  ],
  providers: [
    TrainingFactsController,
    ProjectScopes,
    ModelsRepository,
    ModelAccess,
    ModelRuns,
    ModelsService,
    SearchModelsService,
    SearchModelsRepository,
    TrainingService,
    TrainingRepository,
    PresetRepository,
    PresetsService,
    ModelListingRepository,
    ModelListingService,
    ModelPageRepository,
    ModelPageService,
    TrainingImageRepository,
    TrainingImagesService,
    ScoresService,
    ModelCopyRepository,
    ModelCopyService,
  ],
  exports: [ModelAccess, ModelRuns, ModelsService, ProjectScopes, PresetsService, TrainingFactsController],
})
export class ModelsModule {}
