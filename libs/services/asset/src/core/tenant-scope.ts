import { Injectable } from '@nestjs/common';
import { AccessPolicy, type ActingProject, type Principal } from '@genasset/auth';
import { ApiError } from '@genasset/http';

/** The project a request acts on, and who acts (`authorId`: the asset's, the snapshot's author). Every asset query is scoped by it. */
export type ProjectScope = ActingProject;

/** Turns credentials into the project they act on, by the rule of AccessPolicy.actingProject. */
@Injectable()
export class TenantScopes {
  constructor(private readonly access: AccessPolicy) {}

  resolve(principal: Principal, projectId?: string): Promise<ProjectScope> {
    return this.access.actingProject(principal, projectId);
  }

  /** For a route that needs a project admin (forceUnlock). */
  assertAdmin(scope: ProjectScope, what: string): void {
    if (scope.role !== 'admin') throw new ApiError(403, 'forbidden', `${what} requires a project admin`);
  }
}
