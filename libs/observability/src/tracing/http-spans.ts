import type { Span } from '@opentelemetry/api';

/**
 * The server span of each HTTP request in flight, keyed by the raw Node
 * request: the Fastify hooks open and end it, the interceptor activates it
 * around the handler, the request log line reads its ids.
 */
export const httpSpans = new WeakMap<object, Span>();
