import { Module } from '@nestjs/common';
import { GenerationDataModule } from '../generation-data.module';
import { ModelsModule } from '../models/models.module';
import { RecommendationsController } from './recommendations.controller';
import { RecommendationsRepository } from './recommendations.repository';
import { RecommendationsService } from './recommendations.service';

/** `GET /v1/recommendations/models`: the registry's models ranked by the project's use (docs/models.md). */
@Module({
  imports: [GenerationDataModule, ModelsModule],
  controllers: [RecommendationsController],
  providers: [RecommendationsService, RecommendationsRepository],
})
export class RecommendationsModule {}
