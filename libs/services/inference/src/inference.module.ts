import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { InferenceDataModule } from './inference-data.module';
import { InferencePrisma } from './inference.prisma';
import { INFERENCE_SCHEMA, INFERENCE_SERVICE } from './inference.schema';

/** Runs engines for generation, training and export work; its schema holds only its outbox and inbox. Features arrive as folders beside this module. */
@Module({
  imports: [
    InferenceDataModule,
    MessagingModule.forService({
      schema: INFERENCE_SCHEMA.schema,
      producer: INFERENCE_SERVICE,
      consumer: INFERENCE_SERVICE,
      prismaToken: InferencePrisma,
      imports: [InferenceDataModule],
    }),
  ],
})
export class InferenceWorkerModule {}
