import type { FastifyInstance } from 'fastify';
import { storage } from 'nestjs-pino/storage';

/**
 * nestjs-pino keeps each request's logger in an `AsyncLocalStorage` (that is
 * how `requestId` reaches every line a service logs during a request). On
 * Node 20 an enabled `AsyncLocalStorage` runs promise hooks for every promise
 * of the process, not only the request's: in the webhook dispatcher that was
 * 14–18 % of its CPU, spent mostly on Kafka consumers and delivery workers
 * that never log with a request's context (bench/webhooks/README.md).
 *
 * So the storage is switched off whenever no HTTP request is in flight in
 * this process. nestjs-pino's middleware switches it on again with its next
 * `storage.run()` (Node's `run` re-enables a disabled storage). While it is
 * off, `getStore()` returns undefined and loggers fall back to the root
 * logger: only lines logged after a request's response has gone out (work
 * the request left running) can lose their `requestId`.
 *
 * The count is per process because the storage is: several apps in one
 * process (the platform, tests) share it.
 */
let inFlight = 0;

function released(): void {
  inFlight -= 1;
  if (inFlight === 0) storage.disable();
}

export function scopeRequestLogContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (_request, reply, done) => {
    inFlight += 1;
    // 'close' comes once per response, sent or aborted.
    reply.raw.once('close', released);
    done();
  });
}

/** For tests: requests counted as in flight, and whether the storage is on. */
export function requestLogContextState(): { inFlight: number; storageEnabled: boolean } {
  return { inFlight, storageEnabled: (storage as unknown as { enabled: boolean }).enabled };
}
