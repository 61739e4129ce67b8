import { storable, errorMessage } from '@genasset/contracts';

/** Recorded when the service itself failed before or while sending (spec: -1). */
export const SERVICE_ERROR_CODE = -1;
/** Recorded for connection failures: DNS, TCP, TLS, timeouts, refused targets (spec: 500). */
export const NETWORK_ERROR_CODE = 500;

/** How one attempt ended, as it is recorded. */
export interface AttemptOutcome {
  /** 200 for any 2xx, the answered status otherwise, 500 network/timeout, -1 service error. */
  responseStatusCode: number;
  /** Any 2xx. */
  ok: boolean;
  /** When the attempt was signed and sent (also the signature timestamp). */
  sentAt: Date;
  durationMs: number;
  /** Short reason of a failure; null on success and for answered statuses. */
  error: string | null;
}

/** One attempt's outcome for one delivery, ready to be recorded. */
export interface AttemptResult extends AttemptOutcome {
  deliveryId: string;
  endpointId: string;
  /** This attempt's number, 1 for the first: what the retry policy decides on. */
  attempt: number;
}

/**
 * The outcome as the result of this delivery's attempt, field by field: every
 * result then has one shape, which the recorder serialises thousands of times
 * a second, and no object spread or rest copy runs per attempt.
 */
export function attemptResult(
  delivery: { id: string; endpointId: string; attemptCount: number },
  outcome: AttemptOutcome,
): AttemptResult {
  return {
    deliveryId: delivery.id,
    endpointId: delivery.endpointId,
    attempt: delivery.attemptCount + 1,
    responseStatusCode: outcome.responseStatusCode,
    ok: outcome.ok,
    sentAt: outcome.sentAt,
    durationMs: outcome.durationMs,
    error: outcome.error,
  };
}

export function answered(status: number, sentAt: Date, durationMs: number): AttemptOutcome {
  const ok = status >= 200 && status < 300;
  return {
    responseStatusCode: ok ? 200 : status,
    ok,
    sentAt,
    durationMs,
    error: ok ? null : `HTTP ${status}`,
  };
}

export function networkFailure(error: string, sentAt: Date, durationMs: number): AttemptOutcome {
  return { responseStatusCode: NETWORK_ERROR_CODE, ok: false, sentAt, durationMs, error: truncate(error) };
}

export function serviceFailure(error: string, sentAt: Date = new Date(), durationMs = 0): AttemptOutcome {
  return { responseStatusCode: SERVICE_ERROR_CODE, ok: false, sentAt, durationMs, error: truncate(error) };
}

// Errors thrown by the HTTP client for a bad request we built: our fault (-1), not the receiver's.
const SERVICE_SIDE_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'ERR_INVALID_URL',
  'ERR_INVALID_ARG_TYPE',
]);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/**
 * Maps an error thrown while sending to the recorded outcome: a timeout, a
 * refused target, DNS, TCP and TLS failures are the network's (500); a
 * request the client refused to build is the service's (-1).
 */
export function transportFailure(
  error: unknown,
  sentAt: Date,
  durationMs: number,
  timeoutMs: number,
  timedOut: boolean,
): AttemptOutcome {
  const code = (error as { code?: unknown })?.code;
  const message = errorMessage(error);
  if (timedOut || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
    return networkFailure(`timeout: no complete answer within ${timeoutMs} ms`, sentAt, durationMs);
  }
  if (typeof code === 'string' && SERVICE_SIDE_CODES.has(code))
    return serviceFailure(`request not sent: ${message}`, sentAt, durationMs);
  if (code === 'WEBHOOK_FORBIDDEN_TARGET')
    return networkFailure(`target refused: ${message}`, sentAt, durationMs);
  return networkFailure(
    typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message,
    sentAt,
    durationMs,
  );
}

/**
 * At most `max` characters, and text PostgreSQL stores: a NUL or half a surrogate pair (a
 * certificate name in a TLS error, a cut through an emoji) would fail the recording statement
 * every time, so the attempt would never be recorded. Those become U+FFFD.
 */
function truncate(text: string, max = 300): string {
  const short = text.length <= max ? text : `${text.slice(0, max - 1)}…`;
  return storable(short);
}
