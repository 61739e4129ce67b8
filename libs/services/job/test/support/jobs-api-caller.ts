import { Inject, Module } from '@nestjs/common';
import { JOBS_API, type JobsApi } from '@genasset/contracts';
import { JOB_SCHEMA } from '../../src';
import type { ServiceDescriptor } from './job-harness';

/** What the caller module was given for JOBS_API (set when the process starts). */
export const injected: { api?: JobsApi } = {};

/**
 * Stands in for a creator running in the same process as job-service
 * (generation-service in embedded mode): another service module that injects
 * JOBS_API. It owns no tables; it names the job schema only because a
 * descriptor needs one (migrating it twice applies nothing).
 */
@Module({})
class JobsApiCallerModule {
  constructor(@Inject(JOBS_API) api: JobsApi) {
    injected.api = api;
  }
}

export const JOBS_API_CALLER: ServiceDescriptor = {
  name: 'jobs-api-caller',
  schema: JOB_SCHEMA,
  module: JobsApiCallerModule,
};
