import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AccessPolicy } from './access-policy';
import { ApiKeyCache } from './api-key-cache';
import { AUTH_CACHE, AuthGuard } from './auth.guard';
import { MeController } from './me.controller';

/** Global so any controller can use @Authenticated(); needs IdentityModule in the app. */
@Global()
@Module({})
export class AuthModule {
  static forRoot(options: { cacheTtlMs: number; serveMe?: boolean }): DynamicModule {
    return {
      module: AuthModule,
      controllers: options.serveMe ? [MeController] : [],
      providers: [{ provide: AUTH_CACHE, useValue: new ApiKeyCache(options.cacheTtlMs) }, AuthGuard, AccessPolicy],
      exports: [AUTH_CACHE, AuthGuard, AccessPolicy],
    };
  }
}
