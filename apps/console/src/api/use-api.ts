import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export interface UseApiOptions<T> {
  /** Reload this often… */
  pollMs?: number;
  /** …while this holds for the last data (default: always). */
  pollWhile?: (data: T | undefined) => boolean;
}

/**
 * Runs `load` when `key` changes (and on reload()), keeping the last data while reloading so
 * polling does not flash. An answer that arrives after a newer request started is dropped.
 * Hand-written (a few lines) rather than a data-fetching library: the console needs no cache
 * shared between pages, and every screen shows live data.
 */
export function useApi<T>(load: () => Promise<T>, key: string, options: UseApiOptions<T> = {}): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; settled?: string }>({});
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const request = `${key}|${tick}`;

  useEffect(() => {
    const id = ++latest.current;
    loadRef.current().then(
      (data) => {
        if (id === latest.current) setState({ data, error: undefined, settled: request });
      },
      (error: unknown) => {
        if (id === latest.current) setState((s) => ({ data: s.data, error, settled: request }));
      },
    );
  }, [request]);

  const polling = Boolean(options.pollMs) && (options.pollWhile?.(state.data) ?? true);
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => setTick((t) => t + 1), options.pollMs);
    return () => clearInterval(timer);
  }, [polling, options.pollMs, key]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.settled !== request, reload };
}

/** Runs a user action (a button), exposing its pending state and failure. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setPending(true);
      setError(undefined);
      try {
        return await action(...args);
      } catch (failure) {
        setError(failure);
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [action],
  );
  return { run, pending, error, clearError: () => setError(undefined) };
}
