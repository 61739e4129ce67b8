import { histogram } from './registry';

/**
 * Every HTTP request by route template (`/v1/assets/:assetId`, never the raw
 * path: bounded cardinality; `unmatched` for 404s of unknown paths), method and
 * status. Rate = `_count`, errors = status_code=~"5..", latency = the buckets.
 */
export const httpRequestDuration = histogram({
  name: 'http_server_request_duration_seconds',
  help: 'HTTP requests served, by route template, method and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});
