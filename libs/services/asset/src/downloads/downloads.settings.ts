import { loadConfig, vars, z } from '@genasset/config';

/** Batch download settings (docs/assets.md, "Batch downloads"), read once from the process's environment. */
export const downloadsEnv = z.object({
  /** How long the archive's signed URL (`downloadUrl`) is valid. The archive is deleted one hour later. */
  ASSET_DOWNLOAD_URL_TTL: vars.duration('24h'),
  /** Archives built at once by one process. */
  ASSET_DOWNLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Safety-net poll for queued archives (new work also wakes the workers through NOTIFY). */
  ASSET_DOWNLOAD_POLL_INTERVAL: vars.duration('10s'),
  /** A worker's claim on an archive; renewed while it builds. After a crash, another worker takes over once it runs out. */
  ASSET_DOWNLOAD_LEASE: vars.duration('60s'),
  /** Delays before the 2nd and 3rd attempt after a storage or database failure; then the job fails. */
  ASSET_DOWNLOAD_RETRY_DELAYS: vars.durations('10s,60s'),
});

export interface DownloadSettings {
  urlTtlSeconds: number;
  concurrency: number;
  pollIntervalMs: number;
  leaseMs: number;
  retryDelaysMs: number[];
}

export const DOWNLOAD_SETTINGS = Symbol('DOWNLOAD_SETTINGS');

export function loadDownloadSettings(env: NodeJS.ProcessEnv): DownloadSettings {
  const config = loadConfig(downloadsEnv, env);
  const urlTtlSeconds = Math.round(config.ASSET_DOWNLOAD_URL_TTL / 1000);
  if (urlTtlSeconds < 60 || urlTtlSeconds > 7 * 24 * 3600) {
    throw new Error(
      'ASSET_DOWNLOAD_URL_TTL must be from 1m to 7d (the longest S3 allows for a presigned URL)',
    );
  }
  return {
    urlTtlSeconds,
    concurrency: config.ASSET_DOWNLOAD_CONCURRENCY,
    pollIntervalMs: config.ASSET_DOWNLOAD_POLL_INTERVAL,
    leaseMs: Math.max(3_000, config.ASSET_DOWNLOAD_LEASE),
    retryDelaysMs: config.ASSET_DOWNLOAD_RETRY_DELAYS,
  };
}
