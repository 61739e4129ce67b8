import { Injectable } from '@nestjs/common';
import { AccessPolicy, requireApiKey, type Principal } from '@genasset/auth';
import { ApiError } from '@genasset/http';
import type { Role } from '@genasset/identity';

/** The project a request acts on, and who acts. Every asset query is scoped by it. */
export interface ProjectScope {
  teamId: string;
  projectId: string;
  /** The API key id: the asset's author, the snapshot's author. */
  authorId: string;
  role: Role;
}

/**
 * Turns credentials into the project they act on. A project key acts on its
 * own project (naming another one with `projectId` answers 404). A team-level
 * key has no project of its own and must name one of its team's projects with
 * the `projectId` query parameter; another team's project answers 404.
 */
@Injectable()
export class TenantScopes {
  constructor(private readonly access: AccessPolicy) {}

  async resolve(principal: Principal, projectId?: string): Promise<ProjectScope> {
    const key = requireApiKey(principal);
    if (key.projectId !== null) {
      if (projectId !== undefined && projectId !== key.projectId) throw ApiError.notFound(`project ${projectId} not found`);
      return { teamId: key.teamId, projectId: key.projectId, authorId: key.keyId, role: key.role };
    }
    if (projectId === undefined) {
      throw new ApiError(400, 'project_required', 'A team-level API key must name the project: add the query parameter projectId', {
        parameter: 'projectId',
      });
    }
    await this.access.assertProjectMember(principal, projectId);
    return { teamId: key.teamId, projectId, authorId: key.keyId, role: key.role };
  }

  /** For a route that needs a project admin (forceUnlock). */
  assertAdmin(scope: ProjectScope, what: string): void {
    if (scope.role !== 'admin') throw new ApiError(403, 'forbidden', `${what} requires a project admin`);
  }
}
