/** Probe routes: outside the `/v1` prefix, unauthenticated, logged at debug only. */
export const HEALTH_PATHS = ['/healthz', '/readyz'];
