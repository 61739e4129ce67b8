import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { AssetDataModule } from './asset-data.module';
import { AssetPrisma } from './asset.prisma';
import { ASSET_SCHEMA, ASSET_SERVICE } from './asset.schema';

/** Assets: storage, canvases, tags, downloads. Features arrive as folders beside this module. */
@Module({
  imports: [
    AssetDataModule,
    MessagingModule.forService({
      schema: ASSET_SCHEMA.schema,
      producer: ASSET_SERVICE,
      consumer: ASSET_SERVICE,
      prismaToken: AssetPrisma,
      imports: [AssetDataModule],
    }),
  ],
})
export class AssetServiceModule {}
