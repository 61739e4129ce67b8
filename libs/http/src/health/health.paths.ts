/**
 * Operational routes: outside the `/v1` prefix, unauthenticated, logged at
 * debug only, never traced, and never routed by the public gateway — the
 * probes and the Prometheus scrape endpoint.
 */
export const HEALTH_PATHS = ['/healthz', '/readyz', '/metrics'];
