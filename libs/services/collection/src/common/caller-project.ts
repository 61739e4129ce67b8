import { Injectable } from '@nestjs/common';
import { AccessPolicy, requireApiKey, type Principal } from '@genasset/auth';
import type { TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';

/**
 * Collections belong to a project (upstream `ownerId` is the project id). A
 * project key acts on its own project; a team-level key has none, so it names
 * one with `?projectId=` and must belong to that project's team. Another
 * tenant's project answers 404, like every foreign resource.
 */
@Injectable()
export class CallerProject {
  constructor(private readonly access: AccessPolicy) {}

  async resolve(principal: Principal, projectId?: string): Promise<TenantRef> {
    const caller = requireApiKey(principal);
    if (projectId === undefined) {
      if (caller.projectId === null) {
        // Same code and infos as asset-service's answer, plus the field map of a validation error.
        const message = 'A team-level API key must name the project: add the query parameter projectId';
        throw new ApiError(400, 'project_required', message, {
          parameter: 'projectId',
          fields: { projectId: [message] },
        });
      }
      return { teamId: caller.teamId, projectId: caller.projectId, authorId: caller.keyId };
    }
    await this.access.assertProjectMember(principal, projectId);
    return { teamId: caller.teamId, projectId, authorId: caller.keyId };
  }
}
