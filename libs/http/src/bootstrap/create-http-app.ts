import { type DynamicModule, RequestMethod, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import {
  collectProcessMetrics,
  instrumentFastify,
  TracingInterceptor,
  tracingEnabled,
} from '@genasset/observability';
import { renderErrorBody } from '../errors/api-error-body';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { toApiError } from '../errors/to-api-error';
import { HEALTH_PATHS } from '../health/health.paths';
import { ReadinessRegistry } from '../health/readiness.registry';
import { scopeRequestLogContext } from '../logging/request-log-context';
import { setupOpenApi } from '../openapi/openapi.setup';
import { REQUEST_ID_HEADER, requestIdFor } from '../request-id/request-id';
import { createValidationPipe } from '../validation/validation.pipe';
import { DEFAULT_BODY_LIMIT_BYTES, type HttpAppOptions } from './http-app.options';
import { HttpRootModule } from './http-root.module';

export const API_PREFIX = 'v1';

/**
 * Builds a configured, not yet listening, Fastify-based Nest app: JSON logs
 * with request ids, `/v1` prefix, strict validation, the upstream error body
 * for every error, OpenAPI at `/v1/openapi.json` with Swagger UI at `/docs`,
 * and `/healthz` + `/readyz`. Call `app.init()` (tests, then `app.inject()`)
 * or `startHttpApp()`.
 */
export async function createHttpApp(
  rootModule: Type | DynamicModule,
  options: HttpAppOptions,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    trustProxy: true,
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    // pino-http (through nestjs-pino) logs requests; Fastify's own logger stays off.
    logger: false,
    // Fastify must not trust the header blindly: requestIdFor sanitises it.
    requestIdHeader: false,
    genReqId: requestIdFor,
    // Malformed URLs (`/v1/%ZZ`) are refused by the router before any hook or
    // Nest handler runs; answer them with the same error body too.
    frameworkErrors: frameworkErrorHandler as never,
  });
  const module = HttpRootModule.wrap(rootModule, {
    serviceName: options.serviceName,
    logLevel: options.logLevel,
    destination: options.logDestination,
  });
  // rawBody: request.rawBody keeps the bytes, for routes that check a signature over them (backend callbacks).
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, { bufferLogs: true, rawBody: true });
  app.useLogger(app.get(Logger));
  app.flushLogs();

  const fastify = app.getHttpAdapter().getInstance();
  // A route may set its own body limit with `@RouteConfig({ bodyLimit: bytes })`
  // (uploads); every other route keeps the app's. Routes are registered by
  // `app.init()`, after this hook is in place.
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  scopeRequestLogContext(fastify as never);
  // While draining, a finished request must not leave its keep-alive socket
  // open, or the server's close would wait for the client's idle timeout.
  const readiness = app.get(ReadinessRegistry);
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (readiness.isShuttingDown) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      ...HEALTH_PATHS.map((path) => ({ path: path.slice(1), method: RequestMethod.GET })),
      // Operator routes carry their own version: /admin/v1/… (kept off the public gateway).
      { path: 'admin/{*rest}', method: RequestMethod.ALL },
      // Service-to-service routes: /internal/v1/… (never routed publicly).
      { path: 'internal/{*rest}', method: RequestMethod.ALL },
    ],
  });
  app.useGlobalPipes(createValidationPipe());
  // Request metrics always; server spans and their activation only with tracing on.
  collectProcessMetrics();
  instrumentFastify(fastify as never, { untraced: HEALTH_PATHS });
  if (tracingEnabled()) app.useGlobalInterceptors(new TracingInterceptor());
  app.useGlobalFilters(new ApiExceptionFilter());
  setupOpenApi(app, options.openapi);
  return app;
}

/** What `frameworkErrors` uses of a reply. */
interface MinimalReply {
  code(status: number): unknown;
  header(name: string, value: string): unknown;
  send(payload: unknown): unknown;
}

// Fastify's declared type is generic over route schemas (and Nest pins its own
// fastify copy), which no concrete handler satisfies: hence `as never` where it is passed.
function frameworkErrorHandler(
  error: Error & { statusCode?: number },
  request: { id: string },
  reply: MinimalReply,
): void {
  reply.code(error.statusCode ?? 400);
  reply.header(REQUEST_ID_HEADER, request.id);
  reply.send(renderErrorBody(toApiError(error)));
}
