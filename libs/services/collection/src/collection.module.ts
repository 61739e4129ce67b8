import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { CollectionDataModule } from './collection-data.module';
import { CollectionPrisma } from './collection.prisma';
import { COLLECTION_SCHEMA, COLLECTION_SERVICE } from './collection.schema';
import { CollectionsController } from './collections/collections.controller';
import { CollectionsRepository } from './collections/collections.repository';
import { CollectionsService } from './collections/collections.service';
import { CallerProject } from './common/caller-project';
import { AssetFactsController } from './facts/asset-facts.controller';
import { AssetTombstones } from './facts/asset-tombstones.repository';
import { MembershipFacts } from './facts/membership-facts';
import { ModelFactsController } from './facts/model-facts.controller';
import { ModelTombstones } from './facts/model-tombstones.repository';
import { MembershipController } from './membership/membership.controller';
import { MembershipRepository } from './membership/membership.repository';
import { MembershipService } from './membership/membership.service';

/**
 * Collections of assets and models (`/v1/collections*`). Asks asset-service
 * (ASSETS_API) and generation-service (MODELS_API) whether items are the
 * caller's, in-process or over HTTP, and follows asset.deleted and model.deleted facts.
 */
@Module({
  imports: [
    CollectionDataModule,
    MessagingModule.forService({
      schema: COLLECTION_SCHEMA.schema,
      producer: COLLECTION_SERVICE,
      consumer: COLLECTION_SERVICE,
      prismaToken: CollectionPrisma,
      imports: [CollectionDataModule],
    }),
  ],
  controllers: [CollectionsController, MembershipController, AssetFactsController, ModelFactsController],
  providers: [
    CallerProject,
    CollectionsRepository,
    CollectionsService,
    MembershipRepository,
    MembershipService,
    AssetTombstones,
    ModelTombstones,
    MembershipFacts,
  ],
})
export class CollectionServiceModule {}
