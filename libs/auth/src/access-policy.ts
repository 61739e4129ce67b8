import { Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { IdentityService, type Role } from '@genasset/identity';
import type { ApiKeyPrincipal, Principal } from './principal';

/** What {@link AccessPolicy.actingProject} resolves: the project, and who acts in it. */
export interface ActingProject {
  teamId: string;
  projectId: string;
  /** The API key id: the author of what the request creates. */
  authorId: string;
  role: Role;
}

/**
 * Resource-level authorisation. Another tenant's project or team answers 404
 * (its existence is not revealed); the caller's own tenant with too little
 * privilege answers 403.
 */
@Injectable()
export class AccessPolicy {
  constructor(private readonly identity: IdentityService) {}

  /**
   * The project a request acts on, by the one rule of every route taking the
   * `projectId` query parameter (its shape is checked by {@link ProjectIdQuery}):
   * a project key acts on its own project and may name only that one; a
   * team-level key must name one of its team's projects (400
   * `project_required` without it). Any other project answers 404, its
   * existence unrevealed.
   */
  async actingProject(principal: Principal, projectId?: string): Promise<ActingProject> {
    const key = requireApiKey(principal);
    if (projectId === undefined && key.projectId === null) {
      const message = 'A team-level API key must name the project: add the query parameter projectId';
      throw new ApiError(400, 'project_required', message, { parameter: 'projectId', fields: { projectId: [message] } });
    }
    const project = projectId ?? key.projectId!;
    if (key.projectId !== null && project !== key.projectId) throw ApiError.notFound(`project ${project} not found`);
    if (key.projectId === null) await this.assertProjectMember(principal, project);
    return { teamId: key.teamId, projectId: project, authorId: key.keyId, role: key.role };
  }

  /** Any key of the project (or a team-level key of its team). */
  async assertProjectMember(principal: Principal, projectId: string): Promise<ApiKeyPrincipal> {
    const caller = requireApiKey(principal);
    const teamId = await this.identity.teamOfProject(projectId);
    const sameTenant = teamId === caller.teamId && (caller.projectId === null || caller.projectId === projectId);
    if (!sameTenant) throw ApiError.notFound(`project ${projectId} not found`);
    return caller;
  }

  /** Project admins: an admin key of the project, or an admin team-level key of its team. */
  async assertProjectAdmin(principal: Principal, projectId: string): Promise<ApiKeyPrincipal> {
    const caller = await this.assertProjectMember(principal, projectId);
    if (caller.role !== 'admin') throw new ApiError(403, 'forbidden', 'This operation requires a project admin');
    return caller;
  }

  /** Team admins, or any key of the team carrying `scope`. */
  assertTeamAdminOrScope(principal: Principal, teamId: string, scope?: string): ApiKeyPrincipal {
    const caller = requireApiKey(principal);
    if (caller.teamId !== teamId) throw ApiError.notFound(`team ${teamId} not found`);
    const isTeamAdmin = caller.role === 'admin' && caller.projectId === null;
    const hasScope = scope !== undefined && (caller.scopes as string[]).includes(scope);
    if (!isTeamAdmin && !hasScope) {
      throw new ApiError(403, 'forbidden', `This operation requires a team admin${scope ? ` or the scope ${scope}` : ''}`);
    }
    return caller;
  }
}

export function requireApiKey(principal: Principal): ApiKeyPrincipal {
  if (principal.kind !== 'api-key') {
    throw new ApiError(401, 'unauthorized', 'This operation requires API key credentials');
  }
  return principal;
}
