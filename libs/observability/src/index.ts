// Metrics (Prometheus, one registry per process) and tracing (OpenTelemetry,
// on only when an OTLP endpoint is configured). See docs/runbook.md.
export {
  metricsRegistry,
  counter,
  gauge,
  histogram,
  collectProcessMetrics,
  renderMetrics,
} from './metrics/registry';
export { ScrapeSources, withinMs } from './metrics/scrape-sources';
export { httpRequestDuration } from './metrics/http.metrics';
export {
  startTracing,
  flushTracing,
  tracingEnabled,
  tracer,
  currentTraceHeaders,
  contextFromHeaders,
  spanContextOf,
  inSpan,
  markSpanFailed,
  traceLogFields,
  spanLogFields,
  SpanKind,
  type Span,
  type Context,
  type SpanOptions,
  type TracingOptions,
  type TracingHandle,
} from './tracing/tracing';
export { httpSpans } from './tracing/http-spans';
export { TracingFlush } from './tracing/tracing-flush';
export { TracingInterceptor } from './tracing/tracing.interceptor';
export { instrumentFastify } from './tracing/instrument-fastify';
