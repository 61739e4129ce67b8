import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { TagListController } from './tag-list.controller';
import { TagListService } from './tag-list.service';
import { TagsRepository } from './tags.repository';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';

@Module({
  imports: [AssetCoreModule],
  controllers: [TagsController, TagListController],
  providers: [TagsService, TagListService, TagsRepository],
})
export class TagsModule {}
