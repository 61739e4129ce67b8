import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { AssetEmbeddings } from '../embeddings/asset-embeddings';
import { SearchAssetsRepository } from './search-assets.repository';
import { SearchAssetsService } from './search-assets.service';
import { SearchController } from './search.controller';
import { VectorIndex } from './vector-index';

/** POST /v1/search/assets (docs/search.md). */
@Module({
  imports: [AssetCoreModule],
  controllers: [SearchController],
  providers: [VectorIndex, SearchAssetsRepository, SearchAssetsService, AssetEmbeddings],
})
export class SearchModule {}
