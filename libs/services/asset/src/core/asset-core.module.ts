import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { AssetDataModule } from '../asset-data.module';
import { AssetPrisma } from '../asset.prisma';
import { ASSET_SCHEMA, ASSET_SERVICE } from '../asset.schema';
import { AssetFacts } from '../facts/asset-facts';
import { CleanupSweeper } from '../objects/cleanup-sweeper';
import { ObjectCleanupRepository } from '../objects/object-cleanup.repository';
import { StoredObjects } from '../objects/stored-objects';
import { AssetPresenter } from './asset-presenter';
import { AssetRepository } from './asset.repository';
import { AssetWriter } from './asset-writer';
import { TenantScopes } from './tenant-scope';

/** The service's outbox, relay and consumer database: created once, shared by every feature module. */
const messaging = MessagingModule.forService({
  schema: ASSET_SCHEMA.schema,
  producer: ASSET_SERVICE,
  consumer: ASSET_SERVICE,
  prismaToken: AssetPrisma,
  imports: [AssetDataModule],
});

/**
 * What every asset feature builds on: data access, the writer (the one way
 * assets are created, with their fact), views, tenant scoping, and object
 * storage without orphans.
 */
@Module({
  imports: [AssetDataModule, messaging],
  providers: [AssetRepository, ObjectCleanupRepository, AssetWriter, AssetPresenter, TenantScopes, StoredObjects, CleanupSweeper, AssetFacts],
  exports: [AssetDataModule, messaging, AssetRepository, AssetWriter, AssetPresenter, TenantScopes, StoredObjects, CleanupSweeper, AssetFacts],
})
export class AssetCoreModule {}
