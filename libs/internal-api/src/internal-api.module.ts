import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ASSETS_API, InternalApiError, JOBS_API, MODELS_API } from '@genasset/contracts';
import { HttpAssetsApi, HttpJobsApi, HttpModelsApi } from './http-clients';
import { InternalHttpClient } from './internal-http.client';

export interface InternalApiSettings {
  /** Tokens of the APIs whose owning service runs in this process (it provides them itself). */
  local: ReadonlySet<symbol>;
  INTERNAL_API_TOKEN?: string;
  JOB_SERVICE_URL?: string;
  ASSET_SERVICE_URL?: string;
  GENERATION_SERVICE_URL?: string;
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
      {
        token: MODELS_API,
        service: 'generation-service',
        url: settings.GENERATION_SERVICE_URL,
        variable: 'GENERATION_SERVICE_URL',
        client: HttpModelsApi,
      },
    ].filter((api) => !settings.local.has(api.token));
    const providers: Provider[] = remote.map((api) => ({
      provide: api.token,
      useFactory: () =>
        api.url && settings.INTERNAL_API_TOKEN
          ? new api.client(new InternalHttpClient(api.service, api.url, settings.INTERNAL_API_TOKEN))
          : unconfigured(api.client, api.service, api.url ? 'INTERNAL_API_TOKEN' : api.variable),
    }));
    return { module: InternalApiModule, providers, exports: remote.map((api) => api.token) };
  }
}

/**
 * A stand-in whose API methods (those of the HTTP client it replaces) reject
 * with a 503 naming the missing variable. A plain object rather than a Proxy
 * answering every property: Nest awaits factory results (a `then` would hang
 * start-up) and calls lifecycle hooks (`onModuleInit`) it finds on providers.
 */
function unconfigured(client: { prototype: object }, service: string, variable: string): object {
  const fail = () =>
    Promise.reject(
      new InternalApiError(
        503,
        'service_unavailable',
        `${service} is not reachable from this process: set ${variable}`,
      ),
    );
  const methods = Object.getOwnPropertyNames(client.prototype).filter((name) => name !== 'constructor');
  return Object.fromEntries(methods.map((name) => [name, fail]));
}
