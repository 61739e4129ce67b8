import { Module } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { AssetCoreModule } from '../core/asset-core.module';
import { ArchiveWriter } from './archive-writer';
import { BatchAssetsRepository } from './batch-assets.repository';
import { DownloadReports } from './download-reports';
import { DownloadStatus } from './download-status';
import { DownloadWorkController } from './download-work.controller';
import { DownloadWorker } from './download-worker';
import { DownloadRepository } from './download.repository';
import { DownloadsController } from './downloads.controller';
import { DOWNLOAD_SETTINGS, loadDownloadSettings } from './downloads.settings';
import { RequestDownload } from './request-download';

/**
 * Batch downloads: POST /v1/assets/download asks job-service for a job;
 * asset-service executes it (job.work.v1 → asset_downloads → workers) and
 * reports the archive's signed URL back (job.reports.v1).
 */
@Module({
  imports: [AssetCoreModule],
  controllers: [DownloadsController, DownloadWorkController],
  providers: [
    {
      provide: DOWNLOAD_SETTINGS,
      useFactory: (env: NodeJS.ProcessEnv) => loadDownloadSettings(env),
      inject: [PROCESS_ENV],
    },
    RequestDownload,
    DownloadStatus,
    BatchAssetsRepository,
    DownloadRepository,
    DownloadReports,
    ArchiveWriter,
    DownloadWorker,
  ],
})
export class DownloadsModule {}
