import { sleep } from '@genasset/contracts';
import { backoffDelay } from '@genasset/messaging';

export interface WhileHeldOptions {
  /** Epoch ms when the claim's lease runs out: past it another worker may hold the job. */
  heldUntil: () => number;
  /** Stops waiting at once (shutdown, cancel): the last error is thrown. */
  signal?: AbortSignal;
  /** Told about each failure that will be tried again. */
  onRetry?: (error: unknown, failures: number) => void;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Runs one of the worker's writes (a result, a failure, a retry) again while
 * it throws, backing off, for as long as the claim's lease lasts. The writes
 * are guarded by the claim (they change nothing once another worker holds the
 * job), so repeating them is safe; what it buys is that a database restart or
 * failover shorter than the lease costs a run neither its result nor a wait
 * for the lease to lapse. Failures that are answers, not errors (the claim is
 * gone), come back as values and are not retried. Hand-written rather than a
 * retry library: the loop is bounded by a moving deadline and an abort signal,
 * which is all it needs.
 */
export async function whileHeld<T>(write: () => Promise<T>, options: WhileHeldOptions): Promise<T> {
  const { initialDelayMs = 200, maxDelayMs = 5_000 } = options;
  for (let failures = 1; ; failures++) {
    try {
      return await write();
    } catch (error) {
      const delay = backoffDelay(failures, initialDelayMs, maxDelayMs);
      if (options.signal?.aborted || Date.now() + delay >= options.heldUntil()) throw error;
      options.onRetry?.(error, failures);
      await sleep(delay, { signal: options.signal });
    }
  }
}
