import { sleep } from '@genasset/contracts';

/**
 * Polls `probe` until it returns a truthy value or the deadline passes; never loops forever. A
 * probe still running at the deadline gets `PROBE_GRACE_MS` more (a slow answer on a loaded
 * machine still counts); one that never settles (a request to a server that accepted and never
 * answers) is then abandoned, not waited on for ever.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 15_000, intervalMs = 50, what = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await beforeDeadline(probe(), deadline);
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    }
    await sleep(intervalMs);
  }
}

const PROBE_GRACE_MS = 5_000;
const UNSETTLED = new Error(`the probe had not settled ${PROBE_GRACE_MS} ms after the deadline`);

function beforeDeadline<T>(value: T | PromiseLike<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(UNSETTLED), Math.max(0, deadline - Date.now()) + PROBE_GRACE_MS);
  });
  return Promise.race([Promise.resolve(value), expired]).finally(() => clearTimeout(timer));
}
