import { Injectable } from '@nestjs/common';
import { AccessPolicy, type Principal } from '@genasset/auth';
import type { TenantRef } from '@genasset/contracts';

/**
 * Collections belong to a project (upstream `ownerId` is the project id): the
 * one a request acts on, by the rule of AccessPolicy.actingProject.
 */
@Injectable()
export class CallerProject {
  constructor(private readonly access: AccessPolicy) {}

  async resolve(principal: Principal, projectId?: string): Promise<TenantRef> {
    const { teamId, projectId: project, authorId } = await this.access.actingProject(principal, projectId);
    return { teamId, projectId: project, authorId };
  }
}
