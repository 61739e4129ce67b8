/** Any client that runs raw SQL: a service's Prisma client or one of its transactions. */
export interface RawQueryable {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
}

/**
 * Whether the project exists in this deployment's identity and belongs to that team.
 * Deployments (or test runs) sharing a broker see each other's facts and work: work for a
 * tenant unknown here is another deployment's, and reporting on it would move its jobs. Read
 * through the caller's client (a consumer's transaction), not IdentityService: embedded mode's
 * single PGlite connection would deadlock on a second one.
 */
export async function tenantKnownIn(client: RawQueryable, teamId: string, projectId: string): Promise<boolean> {
  const rows = await client.$queryRaw<{ team_id: string }[]>`SELECT team_id FROM identity.projects WHERE id = ${projectId}`;
  return rows[0]?.team_id === teamId;
}

/**
 * tenantKnownIn with the answers that were yes remembered: a project's team never changes, so a
 * consumer asks once per project, not once per message. An unknown project is asked again (it may
 * be created later here).
 */
export class KnownTenants {
  private readonly known = new Set<string>();

  async has(client: RawQueryable, teamId: string, projectId: string): Promise<boolean> {
    const key = `${teamId}/${projectId}`;
    if (this.known.has(key)) return true;
    if (!(await tenantKnownIn(client, teamId, projectId))) return false;
    // One entry per project seen; a process serving very many starts over.
    if (this.known.size >= 10_000) this.known.clear();
    this.known.add(key);
    return true;
  }
}
