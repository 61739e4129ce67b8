import { errorMessage } from '@genasset/contracts';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export { SpanKind, type Span, type Context } from '@opentelemetry/api';

export interface TracingOptions {
  /** `service.name` of the spans (OTEL_SERVICE_NAME wins when set). */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /** Tests: where spans go instead of the OTLP exporter (tracing is then on whatever the env says). */
  spanProcessor?: SpanProcessor;
}

export interface TracingHandle {
  readonly enabled: boolean;
  /** Flushes buffered spans and unregisters the SDK. */
  shutdown(): Promise<void>;
}

const TRACER = 'genasset';
let active: { shutdown(): Promise<void>; flush(): Promise<void> } | undefined;

/**
 * Turns tracing on for this process when an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; the
 * exporter reads the standard OTEL_* variables itself) and off otherwise.
 * Off, the SDK is not even loaded, and every helper below returns at its
 * first line: the hot paths pay one boolean check.
 *
 * On: W3C trace context (`traceparent`) is read from incoming HTTP requests,
 * written with every outbox row and restored by consumers, so one trace runs
 * from the request through Kafka to the webhook attempt.
 */
export function startTracing(options: TracingOptions): TracingHandle {
  const env = options.env ?? process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (active || env.OTEL_SDK_DISABLED === 'true' || (!endpoint && !options.spanProcessor)) {
    return { enabled: Boolean(active), shutdown: async () => undefined };
  }
  // Loaded lazily: a process without tracing does not load (or pay for) the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const processor =
    options.spanProcessor ??
    new BatchSpanProcessor(
      new (
        require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')
      ).OTLPTraceExporter(
        // The exporter reads process.env itself; an explicit env (tests, embedding) names the URL.
        env === process.env
          ? undefined
          : {
              url:
                env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${String(endpoint).replace(/\/$/, '')}/v1/traces`,
            },
      ),
    );
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || options.serviceName }),
    spanProcessors: [processor],
  });
  // AsyncLocalStorage context manager, W3C trace context + baggage propagators.
  provider.register();
  const handle = {
    flush: () => provider.forceFlush().catch(() => undefined),
    shutdown: async () => {
      if (active !== handle) return;
      active = undefined;
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
  active = handle;
  return { enabled: true, shutdown: handle.shutdown };
}

/** Exports the spans still buffered (an app closing: the process may exit right after). */
export async function flushTracing(): Promise<void> {
  await active?.flush();
}

export function tracingEnabled(): boolean {
  return active !== undefined;
}

export function tracer() {
  return trace.getTracer(TRACER);
}

/** The W3C headers of the active span (to store with an outbox row); undefined when off or outside a span. */
export function currentTraceHeaders(): { traceparent: string; tracestate?: string } | undefined {
  if (!active) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (!carrier.traceparent) return undefined;
  return carrier.tracestate
    ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate }
    : { traceparent: carrier.traceparent };
}

/** The context a `traceparent` (+ `tracestate`) names, as a parent for new spans. */
export function contextFromHeaders(headers: Readonly<Record<string, unknown>> | undefined): Context {
  if (!active || !headers) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** A span context to link to (batch consumers: one span, many producers). */
export function spanContextOf(traceparent: string | undefined): SpanContext | undefined {
  if (!active || !traceparent) return undefined;
  return trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Parent context (a restored `traceparent`); the active context when absent. */
  parent?: Context;
  links?: Link[];
}

/**
 * Runs `fn` inside a new active span, ended when `fn` settles; a throw marks
 * the span as failed. Off: just runs `fn`.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!active) return fn(undefined);
  const span = tracer().startSpan(
    name,
    { kind: options.kind, attributes: options.attributes, links: options.links },
    options.parent ?? context.active(),
  );
  try {
    return await context.with(trace.setSpan(options.parent ?? context.active(), span), () => fn(span));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: errorMessage(error),
    });
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span failed without an exception (a 5xx answer, a failed webhook attempt). */
export function markSpanFailed(span: Span | undefined, message: string): void {
  span?.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * pino `mixin`: `trace_id` and `span_id` of the active span on every log line,
 * so logs and traces join up. Off or outside a span: no fields, no cost.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  // A fresh object each time: pino merges the log call's own fields into it.
  if (!active) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  return spanLogFields(span);
}

export function spanLogFields(span: Span): { trace_id: string; span_id: string } {
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
