import type { DestinationStream } from 'pino';
import type { OpenApiOptions } from '../openapi/openapi.setup';

export interface HttpAppOptions {
  /** Appears as `service` on every log line. */
  serviceName: string;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  openapi: OpenApiOptions;
  /** Largest accepted request body; Fastify answers 413 beyond it. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Log destination; stdout when absent. Tests pass a stream to read the lines. */
  logDestination?: DestinationStream;
  /** The web console's build (apps/console/dist): served at /console when given. */
  consoleDir?: string;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
