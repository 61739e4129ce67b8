import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessPolicy, type Principal } from '@genasset/auth';
import { checkIdParam } from '@genasset/http';
import { TEAM_WEBHOOKS_SCOPE, type OwnerType, type WebhookOwner } from './webhook-owner';

export const OWNER_TYPE_KEY = Symbol('webhookOwnerType');

export interface OwnerRequest {
  params: Record<string, string | undefined>;
  principal: Principal;
  webhookOwner?: WebhookOwner;
}

/**
 * Resolves the route's owner and checks the caller may manage its endpoints,
 * before any pipe runs: a caller without the right (or of another tenant) gets
 * 403 (or 404) whatever the body holds, never a validation answer that would
 * reveal more. Runs after the AuthGuard (401 for missing/bad credentials).
 */
@Injectable()
export class WebhookOwnerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const type = this.reflector.getAllAndOverride<OwnerType | undefined>(OWNER_TYPE_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!type) throw new Error('WebhookOwnerGuard used on a route without @WebhookOwnerRoutes(type)');
    const request = context.switchToHttp().getRequest<OwnerRequest>();
    // A guard runs before any pipe: the owner id is checked here, by the rule of @IdParam.
    if (type === 'project') {
      const projectId = checkIdParam('projectId', request.params.projectId);
      const caller = await this.access.assertProjectAdmin(request.principal, projectId);
      request.webhookOwner = { type, id: projectId, teamId: caller.teamId };
    } else {
      const teamId = checkIdParam('teamId', request.params.teamId);
      this.access.assertTeamAdminOrScope(request.principal, teamId, TEAM_WEBHOOKS_SCOPE);
      request.webhookOwner = { type, id: teamId, teamId };
    }
    return true;
  }
}
