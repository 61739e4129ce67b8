/** Why `verify()` refused a request. */
export type VerificationFailureReason =
  'missing_header' | 'malformed_header' | 'timestamp_too_old' | 'timestamp_in_future' | 'signature_mismatch';

/** Why a framework helper answered 400: a verification failure, or a signed body that is not an event. */
export type WebhookRejectionReason = VerificationFailureReason | 'invalid_payload';

const MESSAGES: Record<WebhookRejectionReason, string> = {
  missing_header: 'the X-SERVICE-SIGNATURE header is missing',
  malformed_header: 'the X-SERVICE-SIGNATURE header is not <timestamp>.<hex signature>',
  timestamp_too_old: 'the signature timestamp is older than the tolerance',
  timestamp_in_future: 'the signature timestamp is further in the future than the tolerance',
  signature_mismatch: 'the signature does not match the body and secret',
  invalid_payload: 'the body is not a webhook event ({ id, type, data })',
};

/**
 * Base class of the errors a receiver answers with 400. `statusCode` and `expose`
 * follow the http-errors convention, so NestJS (and Express error handlers that
 * honour it) answer 400 with the message instead of a 500.
 */
export abstract class WebhookRejectedError extends Error {
  readonly statusCode = 400;
  readonly expose = true;
  abstract readonly reason: WebhookRejectionReason;
}

/** Thrown by `verifyOrThrow()` and the framework helpers when the signature check fails. */
export class WebhookVerificationError extends WebhookRejectedError {
  override readonly name = 'WebhookVerificationError';
  constructor(readonly reason: VerificationFailureReason) {
    super(`webhook rejected: ${reason} (${MESSAGES[reason]})`);
  }
}

/** Thrown by `parseEvent()` when the body is not JSON or not an event envelope. */
export class WebhookPayloadError extends WebhookRejectedError {
  override readonly name = 'WebhookPayloadError';
  readonly reason = 'invalid_payload' as const;
  constructor(detail: string) {
    super(`webhook rejected: invalid_payload (${detail})`);
  }
}

/**
 * The receiver is wired wrongly (no raw body available, helper not installed).
 * Deliberately has no `statusCode`: frameworks answer 500, the service retries,
 * and the mistake shows in the receiver's logs instead of looking like a bad signature.
 */
export class WebhookConfigurationError extends Error {
  override readonly name = 'WebhookConfigurationError';
}

/** `readRawBody()` stopped reading because the body exceeds `limitBytes`. */
export class RawBodyTooLargeError extends Error {
  override readonly name = 'RawBodyTooLargeError';
  readonly statusCode = 413;
  readonly expose = true;
  constructor(readonly limitBytes: number) {
    super(`request body exceeds ${limitBytes} bytes`);
  }
}
