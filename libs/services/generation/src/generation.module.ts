import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { GenerationDataModule } from './generation-data.module';
import { GenerationPrisma } from './generation.prisma';
import { GenerateModule } from './generate/generate.module';
import { ModelsApiModule } from './models-api/models-api.module';
import { ModelsModule } from './models/models.module';
import { GENERATION_SCHEMA, GENERATION_SERVICE } from './generation.schema';

/**
 * Generation requests (`generate/`: every POST /v1/generate/* route), models,
 * training images. Features arrive as folders beside this module.
 */
@Module({
  imports: [
    GenerationDataModule,
    MessagingModule.forService({
      schema: GENERATION_SCHEMA.schema,
      producer: GENERATION_SERVICE,
      consumer: GENERATION_SERVICE,
      prismaToken: GenerationPrisma,
      imports: [GenerationDataModule],
    }),
    ModelsApiModule,
    ModelsModule,
    GenerateModule,
  ],
})
export class GenerationServiceModule {}
