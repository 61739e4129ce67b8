import { commonEnv, loadConfig, vars, z } from '@genasset/config';

/** The webhook-dispatcher's own settings, validated once at start. */
export const webhookEnv = commonEnv.pick({ DATA_DIR: true, NODE_ENV: true }).extend({
  /** Delays before the 2nd and 3rd attempts (spec: about 1 and 2 minutes). 3 attempts in total. */
  WEBHOOK_RETRY_DELAYS: vars.durations('60s,120s'),
  /** How long a receiver may take to answer one attempt (spec: 30 s). */
  WEBHOOK_TIMEOUT: vars.duration('30s'),
  /** Accept http:// endpoint URLs (development and tests only). */
  WEBHOOK_ALLOW_HTTP: vars.bool(false),
  /** Accept private, loopback, link-local and metadata addresses (development and tests only). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: vars.bool(false),
  /**
   * 32-byte key (base64) encrypting endpoint secrets at rest. Required in production; elsewhere,
   * when unset, one is generated once and kept in <DATA_DIR>/webhook-secret.key.
   */
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((v) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, {
      message: 'expected 32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`)',
    })
    .optional(),
  /** Concurrent attempts per endpoint, so one slow receiver cannot take every worker. */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  /** Deliveries claimed per worker round. */
  WEBHOOK_CLAIM_BATCH: z.coerce.number().int().min(1).max(5000).default(200),
  /** Attempts in flight per dispatcher process. */
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10000).default(256),
  /** Response bytes read from a receiver (the rest is discarded). */
  WEBHOOK_RESPONSE_BODY_LIMIT: z.coerce.number().int().min(0).max(1_048_576).default(4096),
  /** A worker's claim on a delivery lasts WEBHOOK_TIMEOUT + this; after a crash the delivery is attempted again once it passes. */
  WEBHOOK_LEASE_MARGIN: vars.duration('30s'),
  /**
   * A delivery starts only if its worker read its endpoint (a claim, the intake, a check) less than this
   * ago and found the same URL and secret; otherwise the endpoint is read first (paused, deleted or
   * re-pointed meanwhile). 0 reads it before every start.
   */
  WEBHOOK_RECHECK_AFTER: vars.duration('100ms'),
  /** Safety-net poll for due deliveries when no NOTIFY arrives (missed notifications, another replica's retries). */
  WEBHOOK_POLL_INTERVAL: vars.duration('10s'),
  /** Delivery log retention (spec: 90 days). */
  WEBHOOK_RETENTION: vars.duration('90d'),
  /** How often the retention purge runs. */
  WEBHOOK_PURGE_INTERVAL: vars.duration('1h'),
});

export type WebhookConfig = z.infer<typeof webhookEnv>;

export const WEBHOOK_CONFIG = Symbol('WEBHOOK_CONFIG');

export function loadWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  return loadConfig(webhookEnv, env);
}
