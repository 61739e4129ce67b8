import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { GenerationDataModule } from './generation-data.module';
import { GenerationPrisma } from './generation.prisma';
import { GENERATION_SCHEMA, GENERATION_SERVICE } from './generation.schema';

const messaging = MessagingModule.forService({
  schema: GENERATION_SCHEMA.schema,
  producer: GENERATION_SERVICE,
  consumer: GENERATION_SERVICE,
  prismaToken: GenerationPrisma,
  imports: [GenerationDataModule],
});

/** generation-service's outbox, relay and consumers, once per process; feature modules import it for the Outbox. */
@Module({ imports: [messaging], exports: [messaging] })
export class GenerationMessagingModule {}
