import { Module } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { AssetCoreModule } from '../core/asset-core.module';
import { CreateUpload } from './create-upload';
import { FailPendingUpload } from './fail-pending-upload';
import { UploadActions } from './upload-actions';
import { UploadImporter } from './upload-importer';
import { UploadRepository } from './upload.repository';
import { UploadPresenter } from './upload-view';
import { UploadsController } from './uploads.controller';
import { loadUploadSettings, UPLOAD_SETTINGS } from './uploads.settings';

/** /v1/uploads: multipart uploads straight to object storage through signed part URLs, then imported as assets (video, audio, 3D, images). */
@Module({
  imports: [AssetCoreModule],
  controllers: [UploadsController],
  providers: [
    {
      provide: UPLOAD_SETTINGS,
      useFactory: (env: NodeJS.ProcessEnv) => loadUploadSettings(env),
      inject: [PROCESS_ENV],
    },
    CreateUpload,
    FailPendingUpload,
    UploadActions,
    UploadImporter,
    UploadRepository,
    UploadPresenter,
  ],
})
export class UploadsModule {}
