import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { CollectionFactsController } from './collection-facts.controller';

/** Keeps `asset.collectionIds` in step with collection-service (its membership facts). */
@Module({
  imports: [AssetCoreModule],
  controllers: [CollectionFactsController],
})
export class CollectionFactsModule {}
