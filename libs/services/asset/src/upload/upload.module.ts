import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { UploadController } from './upload.controller';
import { UploadService } from './upload.service';

/** POST /v1/assets: images and canvases. */
@Module({ imports: [AssetCoreModule], controllers: [UploadController], providers: [UploadService], exports: [UploadService] })
export class UploadModule {}
