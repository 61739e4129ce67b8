import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { CopyController } from './copy.controller';
import { CopyService } from './copy.service';

@Module({ imports: [AssetCoreModule], controllers: [CopyController], providers: [CopyService], exports: [CopyService] })
export class CopyModule {}
