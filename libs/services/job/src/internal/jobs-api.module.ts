import { Global, Module } from '@nestjs/common';
import { JOBS_API } from '@genasset/contracts';
import { JobCoreModule } from '../job-core.module';
import { JobsApiService } from './jobs-api.service';

/**
 * Provides `JOBS_API` to every module of the process (generation, asset
 * downloads, training…), so a service running beside job-service calls it
 * in-process; processes without job-service get the HTTP client instead
 * (libs/internal-api), which is why the descriptor declares `provides: [JOBS_API]`.
 */
@Global()
@Module({
  imports: [JobCoreModule],
  providers: [{ provide: JOBS_API, useExisting: JobsApiService }],
  exports: [JOBS_API],
})
export class JobsApiModule {}
