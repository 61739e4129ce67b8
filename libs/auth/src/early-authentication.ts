import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthOptions } from './auth-options';
import { Authenticator } from './authenticator';
import type { Principal } from './principal';

/** The route config key @Authenticated sets (RouteConfigPatch) for the hook below. */
export const AUTH_ROUTE_CONFIG = 'auth';

/**
 * Authenticates requests to @Authenticated routes in Fastify's onRequest hook,
 * before the body is read: Fastify parses a body before Nest's guards run, so
 * five unauthenticated 39 MiB uploads used to be read into memory (680 MB →
 * 1.07 GB) only to be answered 401. The refusal is the AuthGuard's own (same
 * ApiError, same error body through the app's exception filter); the guard
 * then finds the principal set. Routes without @Authenticated (public, admin,
 * internal, health) are left alone.
 */
@Injectable()
export class EarlyAuthentication implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authenticator: Authenticator,
  ) {}

  onModuleInit(): void {
    // Absent in an application context without HTTP; hooks added before `ready()` apply to every route.
    const fastify = this.adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (typeof fastify?.addHook !== 'function') return;
    fastify.addHook('onRequest', async (request: FastifyRequest & { principal?: Principal }) => {
      const options = (request.routeOptions.config as { [AUTH_ROUTE_CONFIG]?: AuthOptions } | undefined)?.[AUTH_ROUTE_CONFIG];
      if (options) request.principal = await this.authenticator.authenticate(request.headers.authorization, options);
    });
  }
}
