import { loadConfig, vars, z } from '@genasset/config';

/** Settings of the /v1/uploads flow, read once from the process's environment. */
export const uploadsEnv = z.object({
  /** A pending upload not completed within this is aborted (status failed). */
  ASSET_UPLOAD_TTL: vars.duration('24h'),
  /** Lifetime of each presigned part URL (GET /v1/uploads/{id} signs fresh ones while pending). */
  ASSET_UPLOAD_PART_URL_TTL: vars.duration('6h'),
  /** Imports run at once by one process. */
  ASSET_UPLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Safety-net poll for completed uploads to import, and expiry checks. */
  ASSET_UPLOAD_POLL_INTERVAL: vars.duration('10s'),
});

export interface UploadSettings {
  ttlMs: number;
  partUrlSeconds: number;
  concurrency: number;
  pollIntervalMs: number;
  /** A worker's claim on an import. */
  leaseMs: number;
}

export const UPLOAD_SETTINGS = Symbol('UPLOAD_SETTINGS');

export function loadUploadSettings(env: NodeJS.ProcessEnv): UploadSettings {
  const config = loadConfig(uploadsEnv, env);
  return {
    ttlMs: config.ASSET_UPLOAD_TTL,
    partUrlSeconds: Math.min(
      7 * 24 * 3600,
      Math.max(60, Math.round(config.ASSET_UPLOAD_PART_URL_TTL / 1000)),
    ),
    concurrency: config.ASSET_UPLOAD_CONCURRENCY,
    pollIntervalMs: config.ASSET_UPLOAD_POLL_INTERVAL,
    leaseMs: 120_000,
  };
}
