import { Injectable } from '@nestjs/common';
import { AccessPolicy, requireApiKey, type Principal } from '@genasset/auth';
import type { TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';

/**
 * The project a generate request runs in. A project key generates in its own
 * project (naming another with `projectId` answers 404). A team-level key has
 * no project of its own and must name one of its team's projects with the
 * `projectId` query parameter (another team's project answers 404), as every
 * project route of the API does. Any key of the project may generate: no admin
 * role is needed.
 */
@Injectable()
export class ProjectScopes {
  constructor(private readonly access: AccessPolicy) {}

  async resolve(principal: Principal, projectId?: string): Promise<TenantRef & { authorId: string }> {
    const key = requireApiKey(principal);
    if (key.projectId !== null) {
      if (projectId !== undefined && projectId !== key.projectId)
        throw ApiError.notFound(`project ${projectId} not found`);
      return { teamId: key.teamId, projectId: key.projectId, authorId: key.keyId };
    }
    if (projectId === undefined) {
      throw new ApiError(
        400,
        'project_required',
        'A team-level API key must name the project: add the query parameter projectId',
        {
          parameter: 'projectId',
        },
      );
    }
    await this.access.assertProjectMember(principal, projectId);
    return { teamId: key.teamId, projectId, authorId: key.keyId };
  }
}
