import { Global, Module } from '@nestjs/common';
import { ASSETS_API } from '@genasset/contracts';
import { AssetCoreModule } from '../core/asset-core.module';
import { CopyModule } from '../copy/copy.module';
import { AssetEmbeddings } from '../embeddings/asset-embeddings';
import { UploadModule } from '../upload/upload.module';
import { AssetsApiService } from './assets-api.service';
import { InternalAssetsController } from './internal-assets.controller';

/**
 * Provides ASSETS_API to every module of the process (collection-service asks
 * it which assets exist) and serves the same API at /internal/v1/assets for
 * other processes. A process running asset-service declares `provides:
 * [ASSETS_API]`, so InternalApiModule does not add an HTTP client for it.
 */
@Global()
@Module({
  imports: [AssetCoreModule, UploadModule, CopyModule],
  controllers: [InternalAssetsController],
  providers: [AssetsApiService, AssetEmbeddings, { provide: ASSETS_API, useExisting: AssetsApiService }],
  exports: [ASSETS_API],
})
export class AssetsApiModule {}
