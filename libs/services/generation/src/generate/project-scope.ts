import { Injectable } from '@nestjs/common';
import { AccessPolicy, type Principal } from '@genasset/auth';
import type { TenantRef } from '@genasset/contracts';

/**
 * The project a generate or model request runs in, by the rule of
 * AccessPolicy.actingProject (every route taking `projectId`). Any key of the
 * project may generate: no admin role is needed.
 */
@Injectable()
export class ProjectScopes {
  constructor(private readonly access: AccessPolicy) {}

  async resolve(principal: Principal, projectId?: string): Promise<TenantRef & { authorId: string }> {
    const { teamId, projectId: project, authorId } = await this.access.actingProject(principal, projectId);
    return { teamId, projectId: project, authorId };
  }
}
