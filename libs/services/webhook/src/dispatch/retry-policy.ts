/** The schedule a delivery is retried on (DispatchSettings: WEBHOOK_RETRY_DELAYS). */
export interface RetrySchedule {
  /** Delay before attempt n+1 after attempt n failed (index n-1). */
  readonly retryDelaysMs: readonly number[];
  /** Attempts in all, the first included (spec: 3). */
  readonly maxAttempts: number;
}

/** What a delivery becomes after one attempt. */
export type DeliveryDecision =
  | { status: 'success'; nextAttemptAt: null }
  | { status: 'failed'; nextAttemptAt: null }
  | { status: 'retrying'; nextAttemptAt: Date };

/**
 * Jitter, as a fraction of the delay, added on top of it (never taken off): retries of deliveries that
 * failed together (a receiver down for a moment) spread over the next 10 % of the delay instead of
 * arriving in one wave, and the spec's "about 1 minute, then about 2 minutes" stays 60–66 s and
 * 120–132 s.
 */
export const RETRY_JITTER = 0.1;

/**
 * The whole retry policy: attempt `attempt` (1 for the first) ended with `outcome`; what the delivery
 * becomes and when it is attempted next. Any 2xx is final; a failure is retried `retryDelaysMs[attempt
 * - 1]` (plus jitter) after the attempt ended, until `maxAttempts` were made, then `failed`.
 * `random` (0 ≤ r < 1) is injectable so a test can pin the jitter.
 */
export function nextDeliveryState(
  schedule: RetrySchedule,
  attempt: number,
  outcome: { ok: boolean; sentAt: Date; durationMs: number },
  random: () => number = Math.random,
): DeliveryDecision {
  if (outcome.ok) return { status: 'success', nextAttemptAt: null };
  const delayMs = schedule.retryDelaysMs[attempt - 1];
  if (attempt >= schedule.maxAttempts || delayMs === undefined) return { status: 'failed', nextAttemptAt: null };
  const jitterMs = Math.floor(delayMs * RETRY_JITTER * Math.min(Math.max(random(), 0), 1));
  const endedAt = outcome.sentAt.getTime() + outcome.durationMs;
  return { status: 'retrying', nextAttemptAt: new Date(endedAt + delayMs + jitterMs) };
}
