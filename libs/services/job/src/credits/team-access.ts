import { requireApiKey, type ApiKeyPrincipal, type Principal } from '@genasset/auth';
import { ApiError } from '@genasset/http';

/**
 * Who may read a team's usage: its admins — team-level admin keys, and the
 * admin keys of its projects, which spend the team's units and need to know
 * what is left. Another team's id answers 404 (its existence is not revealed);
 * a member key of the team answers 403. Alert settings are for team admins only
 * (AccessPolicy.assertTeamAdminOrScope).
 */
export function assertTeamOrProjectAdmin(principal: Principal, teamId: string): ApiKeyPrincipal {
  const caller = requireApiKey(principal);
  if (caller.teamId !== teamId) throw ApiError.notFound(`team ${teamId} not found`);
  if (caller.role !== 'admin') {
    throw new ApiError(
      403,
      'forbidden',
      'This operation requires a team admin or a project admin of the team',
    );
  }
  return caller;
}
