import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { CollectionDataModule } from './collection-data.module';
import { CollectionPrisma } from './collection.prisma';
import { COLLECTION_SCHEMA, COLLECTION_SERVICE } from './collection.schema';

/** Collections of assets and models. Features arrive as folders beside this module. */
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
})
export class CollectionServiceModule {}
