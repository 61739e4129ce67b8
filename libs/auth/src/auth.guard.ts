import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AUTH_OPTIONS, type AuthOptions } from './auth-options';
import { Authenticator } from './authenticator';
import type { Principal } from './principal';

/**
 * Requires credentials on a route marked @Authenticated (see Authenticator).
 * In an HTTP app EarlyAuthentication has already authenticated the request
 * before its body was read, and the guard finds the principal set; it
 * authenticates itself only where that hook does not run. Roles and scopes
 * are checked by AccessPolicy, per resource, because they depend on which
 * project or team the route names.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; principal?: Principal }>();
    if (request.principal) return true;
    const options =
      this.reflector.getAllAndOverride<AuthOptions | undefined>(AUTH_OPTIONS, [context.getHandler(), context.getClass()]) ?? {};
    request.principal = await this.authenticator.authenticate(request.headers.authorization, options);
    return true;
  }
}
