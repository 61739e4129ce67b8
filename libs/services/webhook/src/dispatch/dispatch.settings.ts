import { commonEnv, loadConfig } from '@genasset/config';
import type { WebhookConfig } from '../webhook.config';

/** Everything the delivery worker reads from the environment, resolved once at start. */
export interface DispatchSettings {
  /** Delay before attempt n+1 after attempt n failed (index n-1); its length + 1 is the attempt limit. */
  retryDelaysMs: readonly number[];
  /** 1 + retryDelaysMs.length: 3 with the spec's schedule. */
  maxAttempts: number;
  /** Whole budget of one attempt: connect, headers and body (spec: 30 s). */
  timeoutMs: number;
  /** A claim lasts this long; a crashed worker's deliveries are attempted again after it passes. */
  leaseMs: number;
  allowHttp: boolean;
  allowPrivate: boolean;
  endpointConcurrency: number;
  claimBatch: number;
  maxInFlight: number;
  responseBodyLimit: number;
  /** A delivery starts unchecked only on a read of its endpoint younger than this (DeliveryWorker.pump). */
  recheckAfterMs: number;
  /** Safety-net poll when no NOTIFY arrives. */
  pollIntervalMs: number;
  /** How long shutdown waits for attempts in flight before abandoning them (their leases are released). */
  drainTimeoutMs: number;
}

export function dispatchSettings(config: WebhookConfig, env: NodeJS.ProcessEnv = {}): DispatchSettings {
  const { SHUTDOWN_GRACE } = loadConfig(commonEnv.pick({ SHUTDOWN_GRACE: true }), env);
  return {
    retryDelaysMs: config.WEBHOOK_RETRY_DELAYS,
    maxAttempts: config.WEBHOOK_RETRY_DELAYS.length + 1,
    timeoutMs: config.WEBHOOK_TIMEOUT,
    leaseMs: config.WEBHOOK_TIMEOUT + config.WEBHOOK_LEASE_MARGIN,
    allowHttp: config.WEBHOOK_ALLOW_HTTP,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    claimBatch: config.WEBHOOK_CLAIM_BATCH,
    maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT,
    responseBodyLimit: config.WEBHOOK_RESPONSE_BODY_LIMIT,
    recheckAfterMs: config.WEBHOOK_RECHECK_AFTER,
    pollIntervalMs: config.WEBHOOK_POLL_INTERVAL,
    // Leave a few seconds of the process's shutdown grace to record what finished.
    drainTimeoutMs: Math.max(1_000, Math.min(config.WEBHOOK_TIMEOUT, SHUTDOWN_GRACE - 5_000)),
  };
}
