export { createHttpApp, API_PREFIX } from './bootstrap/create-http-app';
export { startHttpApp, type StartHttpAppOptions, type RunningHttpApp } from './bootstrap/start-http-app';
export { type HttpAppOptions, DEFAULT_BODY_LIMIT_BYTES } from './bootstrap/http-app.options';
export { HttpRootModule } from './bootstrap/http-root.module';
export { RouteConfigPatch } from './bootstrap/route-config';
export { MAX_JSON_DEPTH, JSON_MEDIA_TYPE } from './bootstrap/json-body';
export { type RawBodyRequest } from './bootstrap/body-parsers';
export {
  ApiError,
  ApiErrorCode,
  apiErrorCodeForStatus,
  type ApiErrorInfos,
  type KnownApiErrorCode,
  type FieldError,
} from './errors/api-error';
export { type ApiErrorBody, ApiErrorResponse, renderErrorBody } from './errors/api-error-body';
export { ApiExceptionFilter } from './errors/api-exception.filter';
export { toApiError } from './errors/to-api-error';
export { createValidationPipe, flattenValidationErrors } from './validation/validation.pipe';
export { Omittable } from './validation/omittable';
export { SearchBody, SearchImagesBody, SearchPageFields, MAX_REFERENCE_IMAGES } from './search/search.dto';
export { parseFilter, type FilterCondition, type FilterSpec } from './search/search-filter';
export { searchPaging, pageFields, searchSort, countLimit, COUNT_LOOKAHEAD, DEFAULT_SEARCH_LIMIT, type SearchPaging } from './search/search-paging';
export {
  IdParam,
  ApiIdParam,
  checkIdParam,
  idPattern,
  idMessage,
  ID_PARAMS,
  type IdParamName,
} from './validation/id-param';
export { validateBody, refusedFields, acceptedBody, checkBody, type BodyVerdict } from './validation/validate-body';
export {
  loggerParams,
  redactHeaders,
  redactUrl,
  SECRET_HEADERS,
  type LoggerSettings,
} from './logging/logger.options';
export { printBesideLogs } from './logging/stdout-destination';
export { REQUEST_ID_HEADER, requestIdFor, sanitizeRequestId } from './request-id/request-id';
export {
  setupOpenApi,
  buildOpenApiDocuments,
  type OpenApiDocuments,
  OPENAPI_JSON_PATH,
  DOCS_PATH,
  SECURITY_SCHEME,
  type OpenApiOptions,
} from './openapi/openapi.setup';
export {
  ADMIN_DOCS_PATH,
  ADMIN_OPENAPI_JSON_PATH,
  ADMIN_SECURITY_SCHEME,
} from './openapi/admin-document';
export { openApiFingerprint } from './openapi/api-fingerprint';
export { API_VERSION } from './openapi/api-version';
export { setupConsole, CONSOLE_PATH } from './console/console.setup';
export { ApiErrorResponses } from './openapi/api-error-responses.decorator';
export { JobSchema, JobStatusEntrySchema, JobMetadataSchema } from './openapi/job.schema';
export { HealthModule } from './health/health.module';
export { HealthController, type HealthBody } from './health/health.controller';
export { ReadinessRegistry, type ReadinessCheck, type ReadinessResult } from './health/readiness.registry';
export { HEALTH_PATHS } from './health/health.paths';
export { PublicRoute, PUBLIC_ROUTE } from './health/public-route.decorator';
export { CHECKED_BODY_METADATA } from './openapi/openapi-truth';
