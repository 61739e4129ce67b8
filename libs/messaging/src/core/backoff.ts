/** How often and how patiently a failing step is retried. */
export interface RetryPolicy {
  /** Total tries, the first included. */
  readonly attempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_HANDLER_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 200, maxDelayMs: 2_000 };

/**
 * Capped exponential backoff with jitter on the upper half, so replicas that
 * failed together (broker outage) do not retry in lockstep, while the delay
 * never drops below half the nominal value.
 */
export function backoffDelay(failures: number, initialDelayMs: number, maxDelayMs: number): number {
  const nominal = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.round(nominal / 2 + (Math.random() * nominal) / 2);
}

