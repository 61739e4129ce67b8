import { WebhookConfigurationError, WebhookRejectedError, WebhookRejectionReason } from './errors';
import { parseEvent, WebhookEvent } from './events';
import { RawBody, SIGNATURE_HEADER, SignatureHeader, verifyOrThrow } from './signature';

/** Options shared by the framework helpers. */
export interface WebhookReceiverOptions {
  /** The endpoint secret, whole, `whsec_` prefix included. */
  secret: string;
  /** Maximum signature age (and lead into the future). Default 300 000 ms. */
  toleranceMs?: number;
}

/** Header bags as Node, Express, Fastify and NestJS expose them (lower-case names). */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** A request once a helper has verified it. */
export interface WithWebhookEvent {
  webhookEvent: WebhookEvent;
}

/**
 * Verifies the signature, then parses the body: the one-call receive step.
 * Throws `WebhookVerificationError` or `WebhookPayloadError` (both `statusCode` 400).
 */
export function verifyEvent(
  rawBody: RawBody,
  header: SignatureHeader,
  secret: string,
  options: { toleranceMs?: number; now?: number } = {},
): WebhookEvent {
  verifyOrThrow(rawBody, header, secret, options);
  return parseEvent(rawBody);
}

/**
 * The `X-SERVICE-SIGNATURE` value from a header bag. A repeated header is joined the way
 * Node joins it (`a, b`), which then fails as malformed: never pick one of several.
 */
export function signatureHeaderOf(headers: HeaderBag): string | undefined {
  const value = headers[SIGNATURE_HEADER];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The event a helper attached to `req`; throws a configuration error when no helper ran on this route. */
export function webhookEventOf(req: object): WebhookEvent {
  const event = (req as Partial<WithWebhookEvent>).webhookEvent;
  if (!event)
    throw new WebhookConfigurationError(
      'no verified webhook event on this request: is the webhook middleware/hook installed on this route?',
    );
  return event;
}

/** The 400 answer body of every helper. */
export function rejectionBody(reason: WebhookRejectionReason): string {
  return JSON.stringify({ error: 'webhook_rejected', reason });
}

export function isRejection(error: unknown): error is WebhookRejectedError {
  return error instanceof WebhookRejectedError;
}
