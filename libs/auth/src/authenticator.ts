import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { IdentityService } from '@genasset/identity';
import { ApiKeyCache } from './api-key-cache';
import type { AuthOptions } from './auth-options';
import { parseAuthorization } from './credentials';
import type { Principal } from './principal';

export const AUTH_CACHE = Symbol('AUTH_CACHE');

/**
 * Who an `Authorization` header is: `Basic base64(key:secret)` verified against
 * identity (cached for AUTH_CACHE_TTL) or, where `publicAccess` allows it, the
 * literal `public-auth-token`. Missing or wrong credentials → 401. Used before
 * the body is read (EarlyAuthentication) and by the AuthGuard.
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly identity: IdentityService,
    @Inject(AUTH_CACHE) private readonly cache: ApiKeyCache,
  ) {}

  async authenticate(authorization: string | undefined, options: AuthOptions): Promise<Principal> {
    const credentials = parseAuthorization(authorization);
    switch (credentials.kind) {
      case 'none':
        throw new ApiError(401, 'unauthorized', 'Authentication required: Authorization: Basic base64(<API_KEY>:<API_SECRET>)');
      case 'malformed':
        throw new ApiError(401, 'unauthorized', `Malformed Authorization header: ${credentials.reason}`);
      case 'public':
        if (!options.publicAccess) {
          throw new ApiError(401, 'unauthorized', 'public-auth-token is not accepted on this route; use API key credentials');
        }
        return { kind: 'public' };
      case 'basic': {
        let record = this.cache.get(credentials.key, credentials.secret);
        if (!record) {
          record = await this.identity.verifyApiKey(credentials.key, credentials.secret);
          if (!record) throw new ApiError(401, 'unauthorized', 'Invalid API key or secret');
          this.cache.set(credentials.key, credentials.secret, record);
        }
        return {
          kind: 'api-key',
          keyId: record.id,
          teamId: record.teamId,
          projectId: record.projectId,
          role: record.role,
          scopes: record.scopes,
        };
      }
    }
  }
}
