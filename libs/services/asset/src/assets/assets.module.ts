import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { AssetEmbeddings } from '../embeddings/asset-embeddings';
import { AssetListRepository } from './asset-list.repository';
import { AssetsController } from './assets.controller';
import { AssetsService } from './assets.service';
import { ListAssetsService } from './list-assets.service';
import { PublicAssetsController } from './public-assets.controller';

/** List, details, get-bulk, bulk delete, and the deprecated public routes. */
@Module({
  imports: [AssetCoreModule],
  controllers: [PublicAssetsController, AssetsController],
  providers: [AssetListRepository, ListAssetsService, AssetsService, AssetEmbeddings],
})
export class AssetsModule {}
