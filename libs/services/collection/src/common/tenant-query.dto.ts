import { ProjectIdQuery } from '@genasset/auth';

/** `?projectId=`: only team-level keys need it (see AccessPolicy.actingProject). */
export class TenantQuery {
  @ProjectIdQuery('whose collections to use')
  projectId?: string;
}
