import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ApiErrorResponse } from '../errors/api-error-body';
import { ADMIN_DOCS_PATH, ADMIN_OPENAPI_JSON_PATH, splitAdminDocument } from './admin-document';
import { API_VERSION } from './api-version';
import { serveRootIndex } from './root-index';
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
   * ISO 8601 UTC timestamp identifying the API, as upstream does
   * (`"version": "2025-11-04T16:24:17Z"`). Defaults to the recorded API_VERSION:
   * the same code states the same version at every start.
   */
  version?: string;
  /**
   * Serve the admin API's own document at `/admin/v1/openapi.json` and page at
   * `/admin/docs` (the process mounts `/admin/v1`). The admin routes are never
   * in the public document.
   */
  admin?: boolean;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export interface OpenApiDocuments {
  public: OpenAPIObject;
  /** Present when the app has admin routes. */
  admin?: OpenAPIObject;
}

/** The public document and, apart, the admin API's, from one scan of the app's controllers. */
export function buildOpenApiDocuments(app: INestApplication, options: OpenApiOptions): OpenApiDocuments {
  const version = options.version ?? API_VERSION.version;
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
  return splitAdminDocument(document, `${options.title} admin API`);
}

/**
 * Serves the document at `/v1/openapi.json` and Swagger UI at `/docs` (and, with
 * `admin`, the admin API's at `/admin/v1/openapi.json` and `/admin/docs`). The UI's
 * assets come from the bundled swagger-ui-dist through @fastify/static, so the
 * page works offline; `GET /` points to them (root-index.ts). Must run before `app.init()` (Fastify cannot add routes
 * once it is ready).
 */
export function setupOpenApi(app: INestApplication, options: OpenApiOptions): OpenApiDocuments {
  const documents = buildOpenApiDocuments(app, options);
  const serve = (docsPath: string, jsonPath: string, document: OpenAPIObject) =>
    SwaggerModule.setup(docsPath.slice(1), app, document, {
      useGlobalPrefix: false,
      jsonDocumentUrl: jsonPath,
      raw: ['json'],
      customSiteTitle: document.info.title,
      swaggerOptions: { persistAuthorization: false },
    });
  serve(DOCS_PATH, OPENAPI_JSON_PATH, documents.public);
  const admin = options.admin && documents.admin;
  if (admin) serve(ADMIN_DOCS_PATH, ADMIN_OPENAPI_JSON_PATH, admin);
  serveRootIndex(app, {
    name: options.title,
    version: documents.public.info.version,
    links: {
      docs: DOCS_PATH,
      openapi: OPENAPI_JSON_PATH,
      ...(admin ? { adminDocs: ADMIN_DOCS_PATH, adminOpenapi: ADMIN_OPENAPI_JSON_PATH } : {}),
      health: '/healthz',
    },
  });
  return documents;
}
