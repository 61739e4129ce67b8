import { applyDecorators, createParamDecorator, SetMetadata, UseGuards, type ExecutionContext } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { AUTH_OPTIONS, type AuthOptions } from './auth-options';
import { AuthGuard } from './auth.guard';
import type { Principal } from './principal';


/** Requires valid credentials on a controller or route and documents the `Authorizer` scheme. */
export function Authenticated(options: AuthOptions = {}) {
  return applyDecorators(SetMetadata(AUTH_OPTIONS, options), UseGuards(AuthGuard), ApiSecurity('Authorizer'));
}

/** The authenticated caller, as the guard attached it to the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<{ principal: Principal }>().principal;
});
