import { Global, Module } from '@nestjs/common';
import { GenerationDataModule } from '../generation-data.module';
import { MODELS_API } from '@genasset/contracts';
import { InternalModelsController } from './internal-models.controller';
import { RegistryModelsApi } from './registry-models.api';
import { RegistryModelsRepository } from './registry-models.repository';

/**
 * Provides MODELS_API to every module of the process (global: collection-service
 * in the same process injects it), and serves it at /internal/v1/models for the
 * others. The generation descriptor lists MODELS_API in `provides`, so
 * InternalApiModule does not add an HTTP client for it in this process.
 */
@Global()
@Module({
  imports: [GenerationDataModule],
  controllers: [InternalModelsController],
  providers: [RegistryModelsRepository, { provide: MODELS_API, useClass: RegistryModelsApi }],
  exports: [MODELS_API],
})
export class ModelsApiModule {}
