import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/**
 * The process's one metrics registry, served at `/metrics`. Metrics are
 * defined at module load (in `*.metrics.ts` files beside the code they
 * measure), so a definition exists once per process however many Nest apps a
 * test starts in it; the get-or-create helpers below make a second evaluation
 * of a definition file harmless too.
 */
export const metricsRegistry = new Registry();

let defaultsCollected = false;

/**
 * The event-loop lag histogram's sampling timer (prom-client's default is 10 ms: 100 wake-ups a
 * second, about 1 % of a core in an idle process). Lag that matters (≥ 100 ms, runbook.md) shows
 * at 100 ms as well: a blocked loop delays every sample.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/** Node process metrics (CPU, memory, event loop lag, GC), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}

export function counter<T extends string>(config: Omit<CounterConfiguration<T>, 'registers'>): Counter<T> {
  return (
    (metricsRegistry.getSingleMetric(config.name) as Counter<T> | undefined) ??
    new Counter({ ...config, registers: [metricsRegistry] })
  );
}

export function gauge<T extends string>(config: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
  return (
    (metricsRegistry.getSingleMetric(config.name) as Gauge<T> | undefined) ??
    new Gauge({ ...config, registers: [metricsRegistry] })
  );
}

export function histogram<T extends string>(
  config: Omit<HistogramConfiguration<T>, 'registers'>,
): Histogram<T> {
  return (
    (metricsRegistry.getSingleMetric(config.name) as Histogram<T> | undefined) ??
    new Histogram({ ...config, registers: [metricsRegistry] })
  );
}

/** Text exposition of every metric (runs the scrape-time collectors). */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
