import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ApiErrorResponse } from '../errors/api-error-body';
import {
  closeValidatedBodies,
  declarePublicOperations,
  typePathParameters,
  validatedBodyModels,
} from './openapi-truth';

export const OPENAPI_JSON_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/docs';
/** Name of the security scheme, as in the upstream reference (`securityDefinitions.Authorizer`). */
export const SECURITY_SCHEME = 'Authorizer';

export interface OpenApiOptions {
  title: string;
  description?: string;
  /**
   * ISO 8601 UTC timestamp identifying this API build, as upstream does
   * (`"version": "2025-11-04T16:24:17Z"`). Defaults to the process start time.
   */
  version?: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const startedAt = new Date().toISOString();

export function buildOpenApiDocument(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const version = options.version ?? startedAt;
  if (!ISO_UTC.test(version))
    throw new Error(`openapi.version must be an ISO 8601 UTC timestamp, got "${version}"`);
  const config = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description ?? '')
    .setVersion(version)
    // Clients send `Authorization: Basic base64(key:secret)`.
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'API key and secret' }, SECURITY_SCHEME)
    .addSecurityRequirements(SECURITY_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ApiErrorResponse] });
  declarePublicOperations(document);
  typePathParameters(document);
  closeValidatedBodies(document, validatedBodyModels(app));
  return document;
}

/**
 * Serves the document at `/v1/openapi.json` and Swagger UI at `/docs`. The UI's
 * assets come from the bundled swagger-ui-dist through @fastify/static, so the
 * page works offline. Must run before `app.init()` (Fastify cannot add routes
 * once it is ready).
 */
export function setupOpenApi(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const document = buildOpenApiDocument(app, options);
  SwaggerModule.setup(DOCS_PATH.slice(1), app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: options.title,
    swaggerOptions: { persistAuthorization: false },
  });
  return document;
}
