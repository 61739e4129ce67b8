export { InternalHttpClient } from './internal-http.client';
export { HttpJobsApi, HttpAssetsApi, HttpModelsApi } from './http-clients';
export { InternalTokenGuard } from './internal-token.guard';
export { InternalApiModule, type InternalApiSettings } from './internal-api.module';
