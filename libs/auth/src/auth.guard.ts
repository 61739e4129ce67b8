import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@genasset/http';
import { IdentityService } from '@genasset/identity';
import { ApiKeyCache } from './api-key-cache';
import { AUTH_OPTIONS, type AuthOptions } from './auth-options';
import { parseAuthorization } from './credentials';
import type { Principal } from './principal';

export const AUTH_CACHE = Symbol('AUTH_CACHE');

/**
 * Authenticates `Authorization: Basic base64(key:secret)` against identity and,
 * on routes marked `publicAccess`, the literal `public-auth-token`. Missing or
 * wrong credentials → 401. Roles and scopes are checked by AccessPolicy, per
 * resource, because they depend on which project or team the route names.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityService,
    @Inject(AUTH_CACHE) private readonly cache: ApiKeyCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const options =
      this.reflector.getAllAndOverride<AuthOptions | undefined>(AUTH_OPTIONS, [context.getHandler(), context.getClass()]) ?? {};
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; principal?: Principal }>();
    const credentials = parseAuthorization(request.headers.authorization);

    switch (credentials.kind) {
      case 'none':
        throw new ApiError(401, 'unauthorized', 'Authentication required: Authorization: Basic base64(<API_KEY>:<API_SECRET>)');
      case 'malformed':
        throw new ApiError(401, 'unauthorized', `Malformed Authorization header: ${credentials.reason}`);
      case 'public':
        if (!options.publicAccess) {
          throw new ApiError(401, 'unauthorized', 'public-auth-token is not accepted on this route; use API key credentials');
        }
        request.principal = { kind: 'public' };
        return true;
      case 'basic': {
        let record = this.cache.get(credentials.key, credentials.secret);
        if (!record) {
          record = await this.identity.verifyApiKey(credentials.key, credentials.secret);
          if (!record) throw new ApiError(401, 'unauthorized', 'Invalid API key or secret');
          this.cache.set(credentials.key, credentials.secret, record);
        }
        request.principal = {
          kind: 'api-key',
          keyId: record.id,
          teamId: record.teamId,
          projectId: record.projectId,
          role: record.role,
          scopes: record.scopes,
        };
        return true;
      }
    }
  }
}
