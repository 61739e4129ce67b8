import { Module } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { MessagingModule } from '@genasset/messaging';
import { BackendCallbackController } from './callbacks/backend-callback.controller';
import { BackendCallbacks } from './callbacks/backend-callbacks';
import { createEngineRegistry } from './engines/create-engines';
import { EngineRegistry } from './engines/engine-registry';
import { InferenceDataModule } from './inference-data.module';
import { INFERENCE_CONFIG, loadInferenceConfig, type InferenceConfig } from './inference.config';
import { InferencePrisma } from './inference.prisma';
import { INFERENCE_SCHEMA, INFERENCE_SERVICE } from './inference.schema';
import { InputReader } from './work/input-reader';
import { JobReporter } from './work/job-reporter';
import { WorkIntakeController } from './work/work-intake.controller';
import { WorkQueueRepository } from './work/work-queue.repository';
import { WorkRunnerLifecycle } from './work/work-runner.lifecycle';

/**
 * Runs engines for generation work (docs/engines.md): `job.work.requested` is
 * recorded in the inference schema's work queue, a worker loop claims it and
 * runs the mode's engine (image, preview or http), writes the outputs to
 * object storage and reports through the outbox — `job.outputs.produced` for
 * asset-service, `job.report.*` for job-service.
 */
@Module({
  imports: [
    InferenceDataModule,
    MessagingModule.forService({
      schema: INFERENCE_SCHEMA.schema,
      producer: INFERENCE_SERVICE,
      consumer: INFERENCE_SERVICE,
      // The intake's handlers send raw SQL only (the work item's insert or cancel, a failure report):
      // their transactions run on the driver, without Prisma's interactive transaction around them.
      consumerTransactions: 'driver',
      prismaToken: InferencePrisma,
      imports: [InferenceDataModule],
    }),
  ],
  controllers: [WorkIntakeController, BackendCallbackController],
  providers: [
    {
      provide: INFERENCE_CONFIG,
      inject: [PROCESS_ENV],
      useFactory: (env: NodeJS.ProcessEnv) => loadInferenceConfig(env),
    },
    {
      provide: BackendCallbacks,
      inject: [INFERENCE_CONFIG, WorkQueueRepository],
      useFactory: (config: InferenceConfig, queue: WorkQueueRepository) =>
        new BackendCallbacks(config.INFERENCE_CALLBACK_SECRET, (jobId, submission) => queue.reportOf(jobId, submission)),
    },
    {
      provide: EngineRegistry,
      inject: [INFERENCE_CONFIG, PROCESS_ENV, BackendCallbacks],
      // The process's environment (not process.env): credentials named in the backends file are read from it.
      useFactory: (config: InferenceConfig, env: NodeJS.ProcessEnv, callbacks: BackendCallbacks) =>
        createEngineRegistry(config, env, undefined, callbacks),
    },
    WorkQueueRepository,
    JobReporter,
    InputReader,
    WorkRunnerLifecycle,
  ],
})
export class InferenceWorkerModule {}
