import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing, type TracingHandle } from '@genasset/observability';
import { createTestApp, LogCapture } from '../testing/test-app.fixture';

describe('tracing (on)', () => {
  const exporter = new InMemorySpanExporter();
  const logs = new LogCapture();
  let tracing: TracingHandle;
  let app: NestFastifyApplication;
  beforeAll(async () => {
    tracing = startTracing({
      serviceName: 'test-service',
      env: {},
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    app = await createTestApp(logs);
  });
  afterAll(async () => {
    await app.close();
    await tracing.shutdown();
  });

  it('continues the caller trace in a server span named by route, and logs its ids', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await app.inject({
      method: 'GET',
      url: '/v1/things/missing',
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    expect(res.statusCode).toBe(404);
    const span = exporter.getFinishedSpans().find((s) => s.name === 'GET /v1/things/missing');
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span?.attributes['http.response.status_code']).toBe(404);
    const line = logs.lines.find(
      (l) => (l.req as { url?: string } | undefined)?.url === '/v1/things/missing',
    );
    expect(line).toMatchObject({ trace_id: traceId, span_id: span?.spanContext().spanId });
  });

  it('does not trace probes and the scrape endpoint', async () => {
    exporter.reset();
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/metrics' });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
