import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

const MAX_LENGTH = 128;
const UNSAFE = /[^A-Za-z0-9._:/+=@-]/g;

/**
 * A caller's request id is kept so a trace spans the gateway and our logs,
 * but only after stripping anything that could forge log lines or headers;
 * an empty result means we make our own.
 */
export function sanitizeRequestId(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const clean = raw.replace(UNSAFE, '').slice(0, MAX_LENGTH);
  return clean || undefined;
}

/** Fastify `genReqId`: the one place a request id is decided. */
export function requestIdFor(req: IncomingMessage): string {
  return sanitizeRequestId(req.headers[REQUEST_ID_HEADER]) ?? randomUUID();
}
