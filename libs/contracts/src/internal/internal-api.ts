/**
 * Internal APIs: commands one service must answer now for another (create a
 * job and charge it, so the HTTP response can carry the job; check that assets
 * exist for a collection). Each API is an interface plus an injection token;
 * the owning service provides it in-process, and a process that does not run
 * the owner gets an HTTP client for it instead (libs/internal-api). Facts never
 * travel this way: they go through the outbox and the broker.
 */

/** Who a command acts for: always a tenant, so the owner can scope every query. */
export interface TenantRef {
  teamId: string;
  projectId: string;
  /** The API key (or user) on whose behalf the command runs. */
  authorId?: string;
}

/** Thrown by internal API implementations and re-thrown by their HTTP clients with the same fields. */
export class InternalApiError extends Error {
  constructor(
    readonly status: number,
    readonly apiError: string,
    message: string,
    readonly infos: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'InternalApiError';
  }
}
