import { Pool } from 'undici';

export interface LoadResult {
  /** Every request sent, warm-up included (for CPU per request). */
  sent: number;
  /** Measured time (ms). */
  ms: number;
  /** Latency of every measured request (ms), for merging rounds. */
  latencies: number[];
  requests: number;
  errors: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface Target {
  origin: string;
  path: string;
  headers: Record<string, string>;
}

/** Percentile of sorted latencies (ms), nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summarise(latencies: number[], errors: number, ms: number, sent: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    sent,
    ms,
    latencies,
    requests: latencies.length,
    errors,
    perSecond: Math.round((latencies.length / ms) * 1000),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Rounds of the same kind against the same target, as one result. */
export function merge(results: LoadResult[]): LoadResult {
  return summarise(
    results.flatMap((r) => r.latencies),
    results.reduce((n, r) => n + r.errors, 0),
    results.reduce((n, r) => n + r.ms, 0),
    results.reduce((n, r) => n + r.sent, 0),
  );
}

async function call(pool: Pool, target: Target): Promise<boolean> {
  const res = await pool.request({ method: 'GET', path: target.path, headers: target.headers });
  // Read the whole body: the client pays for what the server sends.
  await res.body.arrayBuffer();
  return res.statusCode === 200;
}

function newPool(target: Target, connections: number): Pool {
  return new Pool(target.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
}

/**
 * Closed loop: `concurrency` clients, each sending its next request as soon
 * as the previous answer is read, for `seconds` after `warmupSeconds`.
 * Throughput is what the server sustains; latency includes queueing at that load.
 */
export async function saturate(
  target: Target,
  concurrency: number,
  seconds: number,
  warmupSeconds: number,
): Promise<LoadResult> {
  const pool = newPool(target, concurrency);
  try {
    const warmupEnd = Date.now() + warmupSeconds * 1000;
    const end = warmupEnd + seconds * 1000;
    const latencies: number[] = [];
    let errors = 0;
    let sent = 0;
    const client = async () => {
      while (Date.now() < end) {
        sent++;
        const t0 = performance.now();
        let ok = false;
        try {
          ok = await call(pool, target);
        } catch {
          ok = false;
        }
        if (Date.now() < warmupEnd) continue;
        if (ok) latencies.push(performance.now() - t0);
        else errors++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    return summarise(latencies, errors, seconds * 1000, sent);
  } finally {
    await pool.close();
  }
}

/**
 * Open loop: one request every 1/rate seconds on an absolute schedule, however
 * slow the answers (up to `maxConnections` in flight). Latency is measured
 * from the scheduled start, so a stall counts for every request it delays
 * (no coordinated omission).
 */
export async function paced(
  target: Target,
  rate: number,
  seconds: number,
  maxConnections: number,
  warmupSeconds: number,
): Promise<LoadResult> {
  const pool = newPool(target, maxConnections);
  try {
    const interval = 1000 / rate;
    const total = Math.round((seconds + warmupSeconds) * rate);
    const warmup = Math.round(warmupSeconds * rate);
    const latencies: number[] = [];
    let errors = 0;
    const inFlight = new Set<Promise<void>>();
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const scheduled = start + i * interval;
      const wait = scheduled - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const request = call(pool, target)
        .then(
          (ok) => {
            if (i < warmup) return;
            if (ok) latencies.push(performance.now() - scheduled);
            else errors++;
          },
          () => {
            if (i >= warmup) errors++;
          },
        )
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
    return summarise(latencies, errors, seconds * 1000, total);
  } finally {
    await pool.close();
  }
}
