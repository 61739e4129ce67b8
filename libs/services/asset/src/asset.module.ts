import { Module } from '@nestjs/common';
import { AssetsModule } from './assets/assets.module';
import { CanvasModule } from './canvas/canvas.module';
import { CollectionFactsModule } from './collections/collection-facts.module';
import { CopyModule } from './copy/copy.module';
import { AssetCoreModule } from './core/asset-core.module';
import { DownloadModule } from './download/download.module';
import { DownloadsModule } from './downloads/downloads.module';
import { AssetsApiModule } from './internal/assets-api.module';
import { JobOutputsModule } from './job-outputs/job-outputs.module';
import { SearchModule } from './search/search.module';
import { TagsModule } from './tags/tags.module';
import { UploadModule } from './upload/upload.module';
import { UploadsModule } from './uploads/uploads.module';

/**
 * Assets: storage, canvases, tags, downloads. One feature module per folder;
 * AssetCoreModule holds what they share (repository, writer, views, facts,
 * object storage without orphans).
 */
@Module({
  imports: [AssetCoreModule, AssetsModule, UploadModule, CanvasModule, TagsModule, CopyModule, DownloadModule, DownloadsModule, UploadsModule, AssetsApiModule, JobOutputsModule, CollectionFactsModule, SearchModule],
  exports: [AssetCoreModule],
})
export class AssetServiceModule {}
