import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReadinessRegistry } from '../health/readiness.registry';

export interface StartHttpAppOptions {
  port: number;
  host: string;
  /** Longest a shutdown may take before the process exits anyway (non-zero). */
  shutdownGraceMs: number;
  /** Install SIGTERM/SIGINT handlers that shut down and exit. Default true; tests pass false. */
  handleSignals?: boolean;
}

export interface RunningHttpApp {
  /** `http://host:port` the server listens on (port resolved when 0 was asked). */
  url: string;
  /** Stops accepting, drains, runs Nest's shutdown hooks. Idempotent. */
  shutdown(signal?: string): Promise<void>;
}

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
/** How often a closing server closes the connections that have gone idle since the last look. */
const IDLE_SWEEP_MS = 50;

/**
 * Listens, then owns shutdown. Order matters and differs from Nest's own
 * `enableShutdownHooks` (which runs module destroy hooks before the server
 * stops accepting): readiness goes red, Fastify stops accepting and waits for
 * in-flight requests, then `onModuleDestroy` / `beforeApplicationShutdown` /
 * `onApplicationShutdown` let consumers and relays drain and commit. A timer
 * bounds the whole sequence so an orchestrator never has to SIGKILL us blind.
 */
export async function startHttpApp(
  app: NestFastifyApplication,
  options: StartHttpAppOptions,
): Promise<RunningHttpApp> {
  const logger = new Logger('HttpApp');
  await app.listen({ port: options.port, host: options.host });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  logger.log(`listening on ${url}`);

  let closing: Promise<void> | undefined;
  const shutdown = (signal?: string): Promise<void> => {
    closing ??= (async () => {
      logger.log(`shutting down${signal ? ` on ${signal}` : ''}`);
      app.get(ReadinessRegistry).markShuttingDown();
      // Stop accepting and let in-flight requests finish (Fastify answers 503 to new ones meanwhile).
      // Fastify closes the connections idle when close begins; one busy then turns idle when its
      // response ends, and Node keeps it open for the keep-alive timeout (Fastify's 72 s), so close
      // held on for 70 s after a request that was in flight (seen in tests, and a gateway's pooled
      // connections do the same). Closing each such connection once it is idle ends the wait.
      const server = app.getHttpServer() as Server;
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      try {
        await app.getHttpAdapter().getInstance().close();
      } finally {
        clearInterval(sweep);
      }
      await app.close();
      logger.log('shut down');
    })();
    return closing;
  };

  if (options.handleSignals !== false) {
    const onSignal = (signal: NodeJS.Signals): void => {
      // Deliberately not unref'd: a drain stuck on a promise with no I/O behind it
      // would otherwise let Node exit 0 as if the shutdown had been clean.
      setTimeout(() => {
        logger.error(`shutdown exceeded ${options.shutdownGraceMs} ms; exiting`);
        process.exit(1);
      }, options.shutdownGraceMs);
      shutdown(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    for (const signal of SIGNALS) process.once(signal, onSignal);
  }
  return { url, shutdown };
}
