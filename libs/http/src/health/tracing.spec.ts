import { Body, Controller, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { currentTraceHeaders, startTracing, type TracingHandle } from '@genasset/observability';
import { createHttpApp } from '../bootstrap/create-http-app';
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

  it('makes the server span active inside the handler, after the body was read (what the outbox stamps)', async () => {
    @Controller('echo')
    class EchoController {
      @Post()
      async echo(@Body() body: { wait?: number }): Promise<{ traceparent?: string }> {
        await new Promise((resolve) => setTimeout(resolve, body.wait ?? 1));
        return { traceparent: currentTraceHeaders()?.traceparent };
      }
    }
    @Module({ controllers: [EchoController] })
    class EchoModule {}
    const echo = await createHttpApp(EchoModule, {
      serviceName: 'echo',
      logLevel: 'silent',
      openapi: { title: 'echo' },
    });
    await echo.init();
    await echo.getHttpAdapter().getInstance().ready();
    try {
      exporter.reset();
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await echo.inject({
        method: 'POST',
        url: '/v1/echo',
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'content-type': 'application/json' },
        payload: { wait: 5 },
      });
      const span = exporter.getFinishedSpans().find((s) => s.name === 'POST /v1/echo');
      expect(res.json().traceparent).toBe(`00-${traceId}-${span?.spanContext().spanId}-01`);
    } finally {
      await echo.close();
    }
  });
});
