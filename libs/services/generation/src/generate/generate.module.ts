import { Module } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { GENERATION_CONFIG, loadGenerationConfig } from '../generation.config';
import { ModelsModule } from '../models/models.module';
import { GenerationPricing } from './cost/generation-pricing';
import { PricesController } from './cost/prices.controller';
import { CustomGenerateController } from './custom-generate.controller';
import { CustomGenerateService } from './custom-generate.service';
import { createGenerateController } from './generate.controller';
import { GenerateService } from './generate.service';
import { InputResolver } from './inputs/input-resolver';
import { JobLauncher } from './job-launcher';
import { MODE_REGISTRY } from './modes/mode-registry';
import { ProjectScopes } from './project-scope';
import { ResultWait } from './responses/result-wait';

/**
 * `POST /v1/generate/*`: every mode of the registry plus the custom-model
 * route. Jobs are created and charged by job-service (JOBS_API), asset ids
 * checked by asset-service (ASSETS_API), data-URL inputs claim-checked in the
 * object store (OBJECT_STORE) — all provided by the process.
 */
@Module({
  imports: [ModelsModule],
  controllers: [CustomGenerateController, createGenerateController(MODE_REGISTRY), PricesController],
  providers: [
    {
      provide: GENERATION_CONFIG,
      inject: [PROCESS_ENV],
      useFactory: (env: NodeJS.ProcessEnv) => loadGenerationConfig(env),
    },
    ProjectScopes,
    InputResolver,
    GenerationPricing,
    JobLauncher,
    ResultWait,
    GenerateService,
    CustomGenerateService,
  ],
  // A workflow's steps are generations: the workflows feature prepares and starts them here.
  exports: [GenerateService, CustomGenerateService, JobLauncher, InputResolver],
})
export class GenerateModule {}
