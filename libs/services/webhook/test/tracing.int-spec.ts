import { createEnvelope, JobSucceeded } from '@genasset/contracts';
import {
  currentTraceHeaders,
  inSpan,
  SpanKind,
  startTracing,
  type TracingHandle,
} from '@genasset/observability';
import { waitFor, type Tenant } from '@genasset/testing';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startIntakeFixture, type IntakeFixture } from './support/intake-fixture';
import { createEndpoint, projectOwner } from './support/webhook-harness';

jest.setTimeout(180_000);

/**
 * One trace from the request that caused a fact, through Kafka (the envelope
 * and headers carry its context, as the outbox writes them), the dispatcher's
 * intake consumer and the stored delivery, to the webhook attempt.
 */
describe('tracing: request → Kafka → webhook attempt', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  let fixture: IntakeFixture;
  let tenant: Tenant;

  beforeAll(async () => {
    // On before the app starts (as runProcess does with OTEL_EXPORTER_OTLP_ENDPOINT set), exporting to memory.
    tracing = startTracing({
      serviceName: 'webhook-tracing-test',
      env: {},
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    fixture = await startIntakeFixture();
    tenant = await fixture.harness.tenant();
  });
  afterAll(async () => {
    await fixture?.close();
    await tracing?.shutdown();
  });

  it('continues the producer trace in the consumer span and the attempt span', async () => {
    const endpoint = await createEndpoint(fixture.harness, projectOwner(tenant), {
      url: fixture.hook('traced'),
      enabledEvents: ['generation.completed'],
    });
    // The producing side: a request span in which the fact is written (job-service's outbox stamps it the same way).
    const { traceId, envelope } = await inSpan(
      'POST /v1/jobs (job-service)',
      { kind: SpanKind.SERVER },
      async (span) => {
        const trace = currentTraceHeaders();
        const env = createEnvelope(
          JobSucceeded,
          fixture.job(tenant, { status: 'success', modelId: 'model_tr' }),
          { producer: 'job-service', trace },
        );
        await fixture.facts.send(JobSucceeded, env);
        return { traceId: span!.spanContext().traceId, envelope: env };
      },
    );
    expect(envelope.trace?.traceparent).toContain(traceId);

    await fixture.receiver.waitForRequests(1, 30_000);
    const spans = await waitFor(
      () => {
        const inTrace = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
        const consumer = inTrace.find((s) => s.name === 'process job.lifecycle.v1');
        const attempt = inTrace.find((s) => s.name === 'webhook attempt');
        return consumer && attempt ? { consumer, attempt } : undefined;
      },
      { timeoutMs: 15_000, what: 'consumer and attempt spans in the producer trace' },
    );
    const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
    expect(spans.consumer.kind).toBe(SpanKind.CONSUMER);
    expect(spans.consumer.attributes).toMatchObject({
      'messaging.destination.name': 'job.lifecycle.v1',
      'messaging.message.id': envelope.id,
    });
    expect(spans.attempt.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(spans.attempt)).toBe(spans.consumer.spanContext().spanId);
    expect(spans.attempt.attributes).toMatchObject({
      'webhook.endpoint.id': endpoint.id,
      'http.response.status_code': 200,
      'webhook.attempt': 1,
    });

    // The same story in the dispatcher's /metrics: one successful attempt, a delivery done, an empty queue.
    // The counters move when the attempt ends; the queue gauges read the table, which the outcome reaches
    // in the recorder's next batch (a few ms later): wait for both.
    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(`${fixture.harness.url}/metrics`)).text();
        const done =
          text.includes('webhook_deliveries_total{result="delivered"} 1') &&
          text.includes('webhook_queue_due_deliveries{status="created"} 0');
        return done ? text : undefined;
      },
      { timeoutMs: 15_000, what: 'delivery counted and recorded' },
    );
    expect(metrics).toContain('webhook_attempts_total{outcome="success"} 1');
    expect(metrics).toMatch(/^webhook_attempt_duration_seconds_count\{outcome="success"\} 1$/m);
    expect(metrics).toContain('webhook_queue_deliveries{status="retrying"} 0');
    expect(metrics).toContain('webhook_queue_due_deliveries{status="created"} 0');
    expect(metrics).toMatch(
      /^messaging_consumer_events_total\{consumer="webhook-dispatcher",outcome="applied"\} [1-9]/m,
    );
  });
});
