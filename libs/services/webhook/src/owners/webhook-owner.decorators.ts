import {
  applyDecorators,
  createParamDecorator,
  SetMetadata,
  UseGuards,
  type ExecutionContext,
} from '@nestjs/common';
import { Authenticated } from '@genasset/auth';
import { ApiIdParam } from '@genasset/http';
import { OWNER_TYPE_KEY, WebhookOwnerGuard, type OwnerRequest } from './webhook-owner.guard';
import type { OwnerType, WebhookOwner } from './webhook-owner';

/** Route parameter naming the owner: `projectId` or `teamId`. */
export function ownerParam(type: OwnerType): 'projectId' | 'teamId' {
  return type === 'project' ? 'projectId' : 'teamId';
}

/** URL prefix of one owner kind's routes (under the global `/v1`). */
export function ownerRoutePrefix(type: OwnerType): string {
  return `${type}s/:${ownerParam(type)}/webhook-endpoints`;
}

/**
 * Marks a controller as managing `type` endpoints: credentials checked first
 * (AuthGuard, 401), then the owner and the caller's right on it (403/404).
 * Guards of one `applyDecorators` call run in the order listed.
 */
export function WebhookOwnerRoutes(type: OwnerType): ClassDecorator {
  return applyDecorators(
    SetMetadata(OWNER_TYPE_KEY, type),
    Authenticated(),
    UseGuards(WebhookOwnerGuard),
    ApiIdParam(
      ownerParam(type),
      type === 'project' ? 'The project owning the endpoints' : 'The team owning the endpoints',
    ),
  );
}

/** The owner the guard resolved and authorised. */
export const CurrentOwner = createParamDecorator((_: unknown, context: ExecutionContext): WebhookOwner => {
  const owner = context.switchToHttp().getRequest<OwnerRequest>().webhookOwner;
  if (!owner) throw new Error('CurrentOwner used on a route without @WebhookOwnerRoutes(type)');
  return owner;
});
