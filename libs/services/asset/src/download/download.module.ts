import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { DownloadController } from './download.controller';
import { DownloadService } from './download.service';

/** Single-asset downloads in a target format (batch downloads live in their own feature). */
@Module({ imports: [AssetCoreModule], controllers: [DownloadController], providers: [DownloadService] })
export class DownloadModule {}
