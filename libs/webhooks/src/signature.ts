import { createHmac, timingSafeEqual } from 'node:crypto';
import { VerificationFailureReason, WebhookVerificationError } from './errors';

/** The header carrying `<timestamp>.<signature>`, lower-cased as Node exposes it in `req.headers`. */
export const SIGNATURE_HEADER = 'x-service-signature';
/** The `User-Agent` of every delivery. */
export const USER_AGENT = 'Service-Webhooks/2.0';
/** The spec's maximum signature age: 5 minutes. */
export const DEFAULT_TOLERANCE_MS = 300_000;

/** The exact bytes the service sent. A parsed-and-re-serialised object is not a raw body. */
export type RawBody = string | Uint8Array;

export interface VerifyOptions {
  /** Maximum age (and maximum lead into the future) of the signature timestamp. Default 300 000 (5 minutes). */
  toleranceMs?: number;
  /** The receiver's current time in Unix milliseconds. Default `Date.now()`. */
  now?: number;
}

/** The header as received; Node types unknown headers as `string | string[] | undefined`. */
export type SignatureHeader = string | readonly string[] | undefined;

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerificationFailureReason };

// The timestamp is Unix milliseconds: digits only, no sign, no exponent, no spaces.
const TIMESTAMP = /^\d{1,16}$/;
// Hex of any length: a wrong-length hex signature is a mismatch, anything else is malformed.
const HEX = /^[0-9a-fA-F]+$/;

function bodyBytes(rawBody: RawBody): Uint8Array {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return rawBody;
  // The commonest receiver mistake: a JSON body parser ran first and the raw bytes are gone.
  throw new TypeError(
    `the raw request body is required (string or Buffer), got ${rawBody === null ? 'null' : typeof rawBody}: ` +
      'did a JSON body parser run before the webhook check?',
  );
}

function requireSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError('the endpoint secret (whsec_…) is required');
}

function hmacHex(timestamp: string, body: Uint8Array, secret: string): string {
  // Bytes, not a re-encoded string: `${timestamp}.` followed by the body exactly as sent.
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest('hex');
}

/**
 * Signs a body the way the service does and returns the `X-SERVICE-SIGNATURE` value
 * `<timestamp>.<hex HMAC-SHA256 of "<timestamp>.<raw body>">`, keyed with the whole
 * secret including its `whsec_` prefix. The dispatcher uses this very function.
 */
export function sign(rawBody: RawBody, secret: string, timestampMs: number = Date.now()): string {
  requireSecret(secret);
  if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
    throw new RangeError(
      `timestampMs must be a non-negative integer (Unix milliseconds), got ${timestampMs}`,
    );
  }
  const timestamp = String(timestampMs);
  return `${timestamp}.${hmacHex(timestamp, bodyBytes(rawBody), secret)}`;
}

/**
 * Checks an `X-SERVICE-SIGNATURE` header against the raw body, in the spec's order:
 *
 * 1. no header → `missing_header`;
 * 2. split on the FIRST `.`: the timestamp must be digits, the signature hex → otherwise
 *    `malformed_header`. A header with further dots (`<ts>.<sig>.x`) is malformed: a hex
 *    signature never contains a dot, and a naive `split('.')` that kept the first two parts
 *    would wrongly accept it;
 * 3. a timestamp more than `toleranceMs` in the past → `timestamp_too_old`; more than
 *    `toleranceMs` in the future → `timestamp_in_future` (clock skew is tolerated up to the
 *    same bound, and a far-future timestamp would otherwise make a captured request replayable
 *    for longer than the tolerance);
 * 4. HMAC-SHA256 over `<timestamp>.` + the raw bytes received, compared in constant time
 *    → `signature_mismatch`.
 *
 * Retries are re-signed with a fresh timestamp, so a rejected stale delivery is not lost
 * because of the age check alone.
 */
export function verify(
  rawBody: RawBody,
  header: SignatureHeader,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  requireSecret(secret);
  // `req.headers[...]` of an unknown header is typed string | string[]: one value is used as is,
  // several are joined as Node joins them, which then fails as malformed (never pick one).
  if (Array.isArray(header)) header = header.join(', ');
  const { toleranceMs = DEFAULT_TOLERANCE_MS, now = Date.now() } = options;
  if (!(toleranceMs >= 0)) throw new RangeError(`toleranceMs must be >= 0, got ${toleranceMs}`);
  if (!Number.isFinite(now)) throw new RangeError(`now must be Unix milliseconds, got ${now}`);
  const body = bodyBytes(rawBody);

  if (header === undefined || header === null || header === '')
    return { ok: false, reason: 'missing_header' };
  if (typeof header !== 'string') return { ok: false, reason: 'malformed_header' };
  const dot = header.indexOf('.');
  if (dot < 0) return { ok: false, reason: 'malformed_header' };
  const timestamp = header.slice(0, dot);
  const signature = header.slice(dot + 1);
  if (!TIMESTAMP.test(timestamp) || !HEX.test(signature)) return { ok: false, reason: 'malformed_header' };

  const signedAt = Number(timestamp);
  if (now - signedAt > toleranceMs) return { ok: false, reason: 'timestamp_too_old' };
  if (signedAt - now > toleranceMs) return { ok: false, reason: 'timestamp_in_future' };

  // HMAC the timestamp text as received (leading zeros included), not a re-formatted number.
  const expected = Buffer.from(hmacHex(timestamp, body, secret), 'latin1');
  const received = Buffer.from(signature.toLowerCase(), 'latin1');
  // timingSafeEqual throws on different lengths; the length of a SHA-256 hex digest is public anyway.
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return { ok: false, reason: 'signature_mismatch' };
  }
  return { ok: true, timestamp: signedAt };
}

/** `verify()` that throws a `WebhookVerificationError` (with `.reason`) and returns the signing time in ms. */
export function verifyOrThrow(
  rawBody: RawBody,
  header: SignatureHeader,
  secret: string,
  options?: VerifyOptions,
): number {
  const result = verify(rawBody, header, secret, options);
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  return result.timestamp;
}
