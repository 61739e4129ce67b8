import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream, type LevelWithSilent } from 'pino';
import type { Options } from 'pino-http';
import { httpSpans, spanLogFields, traceLogFields } from '@genasset/observability';
import { HEALTH_PATHS } from '../health/health.paths';
import { stdoutLogDestination } from './stdout-destination';

/** Headers that carry credentials; their values never reach a log line (nor any SECRET_NAME below). */
export const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-admin-token',
  'x-amz-security-token',
  'x-service-signature',
];

/**
 * Any other header or query parameter whose name looks like a credential: clients
 * send keys in places this product never reads them (`?access_token=`,
 * `X-Auth-Token`), and those must not reach a log either. Page tokens and
 * `authorId` are not credentials and stay readable.
 */
const SECRET_NAME =
  /authori[sz]ation|(?:^|[-_])auth(?:[-_]|$)|(?<!pagination)token|secret|passw|pwd|api[-_]?key|^key$|private[-_]?key|signature|^sig$|credential|cookie|session/i;

const REDACTED = '[redacted]';
// Signed URLs are bearer credentials until they expire; so is any credential-looking parameter.
const QUERY_PARAMETER = /([?&])([^=&#]+)=([^&#]*)/g;

function isSecretName(name: string): boolean {
  return SECRET_HEADERS.includes(name.toLowerCase()) || SECRET_NAME.test(name);
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

export interface LoggerSettings {
  serviceName: string;
  logLevel: string;
  /** Where JSON lines go; stdout when absent (tests pass a stream). */
  destination?: DestinationStream;
}

export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  return (
    url.slice(0, query) +
    url
      .slice(query)
      .replace(QUERY_PARAMETER, (whole, sep: string, name: string) =>
        isSecretName(decodedName(name)) ? `${sep}${name}=${REDACTED}` : whole,
      )
  );
}

export function redactHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name] = isSecretName(name) ? REDACTED : value;
  }
  return out;
}

interface SerializedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  remoteAddress?: string;
  remotePort?: number;
}

function isHealthRequest(req: IncomingMessage): boolean {
  const path = (req.url ?? '').split('?')[0];
  return HEALTH_PATHS.includes(path);
}

/** nestjs-pino parameters: one JSON line per request, tagged with service and requestId. */
export function loggerParams(settings: LoggerSettings): Params {
  const options: Options = {
    level: settings.logLevel,
    base: { service: settings.serviceName, pid: process.pid, hostname: hostname() },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Fastify decided the id (middie copies it onto the raw request); reuse it.
    genReqId: (req: IncomingMessage) => String((req as IncomingMessage & { id?: unknown }).id ?? ''),
    // quietReqLogger binds `requestId` on every line logged during the request.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    // trace_id / span_id of the active span on every line (tracing on)...
    mixin: traceLogFields,
    // ...and on the request's own line, logged after the span closed.
    customProps: (req: IncomingMessage, res: ServerResponse) => {
      // Only for the response line (pino-http also calls this when the request
      // starts: lines logged meanwhile get the ids from the mixin, not twice).
      const span = res.headersSent ? httpSpans.get(req) : undefined;
      return span ? spanLogFields(span) : {};
    },
    customLogLevel: (req: IncomingMessage, res: ServerResponse, err?: Error): LevelWithSilent => {
      if (isHealthRequest(req)) return 'debug';
      return err || res.statusCode >= 500 ? 'error' : 'info';
    },
    serializers: {
      req: (req: SerializedRequest) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        remoteAddress: req.remoteAddress,
        userAgent: req.headers?.['user-agent'],
        headers: redactHeaders(req.headers),
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    // Belt and braces for anything logging a raw headers object elsewhere.
    redact: {
      paths: SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]),
      censor: REDACTED,
    },
  };
  return {
    pinoHttp: [options, settings.destination ?? stdoutLogDestination()],
    // Nest prefixes this with `/v1` and adds the prefix-excluded probes; paths
    // outside both (Swagger UI assets, stray 404s) get no request log line.
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
  };
}
