import { Global, Module, type DynamicModule } from '@nestjs/common';
import { IdentityService } from '@genasset/identity';
import { AccessPolicy } from './access-policy';
import { ApiKeyCache } from './api-key-cache';
import { AuthGuard } from './auth.guard';
import { AUTH_CACHE, Authenticator } from './authenticator';
import { EarlyAuthentication } from './early-authentication';
import { MeController } from './me.controller';

/** Global so any controller can use @Authenticated(); needs IdentityModule in the app. */
@Global()
@Module({})
export class AuthModule {
  static forRoot(options: { cacheTtlMs: number; serveMe?: boolean }): DynamicModule {
    return {
      module: AuthModule,
      controllers: options.serveMe ? [MeController] : [],
      providers: [
        {
          provide: AUTH_CACHE,
          // A key revoked in this process stops working here at once, not after the TTL.
          useFactory: (identity: IdentityService) => {
            const cache = new ApiKeyCache(options.cacheTtlMs);
            identity.onApiKeyRevoked((keyId) => cache.evictKey(keyId));
            return cache;
          },
          inject: [IdentityService],
        },
        Authenticator,
        EarlyAuthentication,
        AuthGuard,
        AccessPolicy,
      ],
      exports: [AUTH_CACHE, Authenticator, AuthGuard, AccessPolicy],
    };
  }
}
