import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Observable } from 'rxjs';
import { ApiError } from '../errors/api-error';
import { HEALTH_PATHS } from '../health/health.paths';

/** Every query parameter name a handler takes, or `any` when a DTO (or the raw request) decides. */
type Declared = ReadonlySet<string> | 'any';

/**
 * A query parameter a route does not take is a 400 naming it, on every route.
 * A route with a query DTO already refuses unknown properties (the pipe's
 * whitelist); a route without one ignored them, so `?projectId=` was refused
 * on one list route and silently dropped on the next. Runs after the guards:
 * credentials and access are answered first. The probe and scrape routes
 * (HEALTH_PATHS) are exempt: they serve load balancers and Prometheus, not API
 * clients, and a probe that adds a cache-buster must not read as "down".
 */
@Injectable()
export class UndeclaredQueryInterceptor implements NestInterceptor {
  private readonly declared = new WeakMap<object, Declared>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<{ query?: Record<string, unknown>; url?: string }>();
      const declared = HEALTH_PATHS.includes((request.url ?? '').split('?')[0]) ? 'any' : this.declaredBy(context);
      const query = request.query ?? {};
      if (declared !== 'any') {
        const undeclared = Object.keys(query).filter((name) => !declared.has(name));
        if (undeclared.length) {
          throw ApiError.validation(
            undeclared.map((field) => ({ field, messages: [`property ${field} should not exist`] })),
          );
        }
      }
    }
    return next.handle();
  }

  private declaredBy(context: ExecutionContext): Declared {
    const handler = context.getHandler();
    let declared = this.declared.get(handler);
    if (declared === undefined) {
      declared = declaredQuery(
        Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) as
          Record<string, { data?: unknown }> | undefined,
      );
      this.declared.set(handler, declared);
    }
    return declared;
  }
}

/** Reads Nest's route argument metadata: keys are `<paramtype>:<index>`. */
function declaredQuery(args: Record<string, { data?: unknown }> = {}): Declared {
  const names = new Set<string>();
  for (const [key, arg] of Object.entries(args)) {
    const [type] = key.split(':');
    if (type === String(RouteParamtypes.REQUEST)) return 'any';
    if (type !== String(RouteParamtypes.QUERY)) continue;
    if (typeof arg.data !== 'string') return 'any';
    names.add(arg.data);
  }
  return names;
}
