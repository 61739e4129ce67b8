import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { AssetEmbeddings } from '../embeddings/asset-embeddings';
import { SearchAssetsRepository } from './search-assets.repository';
import { SearchAssetsService } from './search-assets.service';
import { SearchController } from './search.controller';
import { ModelEmbedder } from './text-to-image/model-embedder';
import { ModelEmbeddingsRepository } from './text-to-image/model-embeddings.repository';
import { SearchModel, searchModelConfigProvider } from './text-to-image/search-model';
import { VectorIndex } from './vector-index';

/** POST /v1/search/assets (docs/search.md), and the search model's vectors of assets (text-to-image). */
@Module({
  imports: [AssetCoreModule],
  controllers: [SearchController],
  providers: [
    VectorIndex,
    SearchAssetsRepository,
    SearchAssetsService,
    AssetEmbeddings,
    searchModelConfigProvider,
    SearchModel,
    ModelEmbeddingsRepository,
    ModelEmbedder,
  ],
  exports: [ModelEmbedder],
})
export class SearchModule {}
