import { applyDecorators, createParamDecorator, SetMetadata, UseGuards, type ExecutionContext } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { RouteConfigPatch } from '@genasset/http';
import { AUTH_OPTIONS, type AuthOptions } from './auth-options';
import { AuthGuard } from './auth.guard';
import { AUTH_ROUTE_CONFIG } from './early-authentication';
import type { Principal } from './principal';


/**
 * Requires valid credentials on a controller or route and documents the
 * `Authorizer` scheme. The route config carries the options too, so the
 * request is authenticated before its body is read (EarlyAuthentication).
 */
export function Authenticated(options: AuthOptions = {}) {
  return applyDecorators(
    SetMetadata(AUTH_OPTIONS, options),
    RouteConfigPatch({ [AUTH_ROUTE_CONFIG]: options }),
    UseGuards(AuthGuard),
    ApiSecurity('Authorizer'),
  );
}

/** The authenticated caller, as the guard attached it to the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<{ principal: Principal }>().principal;
});
