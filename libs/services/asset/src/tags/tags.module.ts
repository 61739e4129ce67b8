import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';

@Module({ imports: [AssetCoreModule], controllers: [TagsController], providers: [TagsService] })
export class TagsModule {}
