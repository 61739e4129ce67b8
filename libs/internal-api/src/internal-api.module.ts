import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ASSETS_API, InternalApiError, JOBS_API } from '@genasset/contracts';
import { HttpAssetsApi, HttpJobsApi } from './http-clients';
import { InternalHttpClient } from './internal-http.client';

export interface InternalApiSettings {
  /** Tokens of the APIs whose owning service runs in this process (it provides them itself). */
  local: ReadonlySet<symbol>;
  INTERNAL_API_TOKEN?: string;
  JOB_SERVICE_URL?: string;
  ASSET_SERVICE_URL?: string;
}

/**
 * For every internal API whose owner is not in this process, an HTTP client
 * to the owner. Unconfigured → a client that fails with a 503 naming the
 * missing variable when used (the process still starts: not every process
 * calls every API).
 */
@Global()
@Module({})
export class InternalApiModule {
  static forProcess(settings: InternalApiSettings): DynamicModule {
    const remote = [
      {
        token: JOBS_API,
        service: 'job-service',
        url: settings.JOB_SERVICE_URL,
        variable: 'JOB_SERVICE_URL',
        client: HttpJobsApi,
      },
      {
        token: ASSETS_API,
        service: 'asset-service',
        url: settings.ASSET_SERVICE_URL,
        variable: 'ASSET_SERVICE_URL',
        client: HttpAssetsApi,
      },
    ].filter((api) => !settings.local.has(api.token));
    const providers: Provider[] = remote.map((api) => ({
      provide: api.token,
      useFactory: () =>
        api.url && settings.INTERNAL_API_TOKEN
          ? new api.client(new InternalHttpClient(api.service, api.url, settings.INTERNAL_API_TOKEN))
          : unconfigured(api.service, api.url ? 'INTERNAL_API_TOKEN' : api.variable),
    }));
    return { module: InternalApiModule, providers, exports: remote.map((api) => api.token) };
  }
}

function unconfigured(service: string, variable: string): object {
  return new Proxy(
    {},
    {
      get: () => () =>
        Promise.reject(
          new InternalApiError(
            503,
            'service_unavailable',
            `${service} is not reachable from this process: set ${variable}`,
          ),
        ),
    },
  );
}
