import { SpanKind, SpanStatusCode, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { httpRequestDuration } from '../metrics/http.metrics';
import { httpSpans } from './http-spans';
import { tracer, tracingEnabled } from './tracing';

/** The parts of a Fastify instance and request these hooks use (Nest pins its own fastify copy). */
interface HookRequest {
  method: string;
  url: string;
  raw: object;
  headers: Record<string, unknown>;
  routeOptions?: { url?: string };
}
interface HookReply {
  statusCode: number;
  elapsedTime: number;
}
type Hook = (request: HookRequest, reply: HookReply, done: () => void) => void;
interface HookTarget {
  addHook(name: 'onRequest' | 'onResponse', hook: Hook): unknown;
}

/**
 * Request metrics and server spans for a Fastify app. The histogram is
 * observed in `onResponse` from Fastify's own timer (no clock reads of ours);
 * a span is opened only when tracing is on, and not for `untraced` paths
 * (probes and `/metrics`: scraped every few seconds, worthless as traces).
 */
export function instrumentFastify(fastify: HookTarget, options: { untraced: readonly string[] }): void {
  const untraced = new Set(options.untraced);
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (tracingEnabled() && !untraced.has(request.url.split('?')[0])) {
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const span = tracer().startSpan(
        request.method,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0] },
        },
        parent,
      );
      httpSpans.set(request.raw, span);
    }
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    httpRequestDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    const span = httpSpans.get(request.raw);
    if (span) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
