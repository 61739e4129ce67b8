export interface SleepOptions {
  /** Ends the sleep early (resolved, never rejected): shutdown must not wait out a backoff. */
  signal?: AbortSignal;
  /** Let the process exit while sleeping (a background loop's pause must not hold it open). */
  unref?: boolean;
}

/** Resolves after `ms`, or at once when `signal` aborts. The one sleep of the code base. */
export function sleep(ms: number, options: SleepOptions = {}): Promise<void> {
  const { signal, unref = false } = options;
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (unref) timer.unref();
    signal?.addEventListener('abort', done, { once: true });
  });
}
