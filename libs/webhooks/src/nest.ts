import { WebhookConfigurationError } from './errors';
import type { WebhookEvent } from './events';
import { HeaderBag, signatureHeaderOf, verifyEvent, WebhookReceiverOptions } from './receive';

/** A NestJS request (Express or Fastify platform) of an app created with `{ rawBody: true }`. */
export interface NestLikeRequest {
  headers: HeaderBag;
  /** Set by Nest when the app is created with `NestFactory.create(AppModule, { rawBody: true })`. */
  rawBody?: Buffer;
  webhookEvent?: WebhookEvent;
}

export interface NestVerifyOptions {
  toleranceMs?: number;
  now?: number;
}

/**
 * Verifies a NestJS request and returns its event (also set on `req.webhookEvent`).
 * Create the app with `NestFactory.create(AppModule, { rawBody: true })` (Express) or
 * `NestFactory.create(AppModule, new FastifyAdapter(), { rawBody: true })`: Nest keeps the
 * bytes in `req.rawBody` next to the parsed `req.body`; only `rawBody` can be verified.
 *
 * Throws `WebhookVerificationError` / `WebhookPayloadError`, which carry `statusCode` 400:
 * Nest's default exception filter answers 400 with the message, no filter needed.
 */
export function verifyNestRequest(
  req: NestLikeRequest,
  secret: string,
  options: NestVerifyOptions = {},
): WebhookEvent {
  if (!Buffer.isBuffer(req.rawBody)) {
    throw new WebhookConfigurationError('req.rawBody is missing: create the Nest app with { rawBody: true }');
  }
  const event = verifyEvent(req.rawBody, signatureHeaderOf(req.headers), secret, options);
  req.webhookEvent = event;
  return event;
}

/** The part of Nest's `ExecutionContext` the guard uses. */
export interface HttpExecutionContextLike {
  switchToHttp(): { getRequest(): NestLikeRequest };
}

/**
 * A Nest guard (structurally `CanActivate`) running `verifyNestRequest()`:
 * `@UseGuards(new WebhookSignatureGuard({ secret }))`, then `webhookEventOf(req)` in the handler.
 */
export class WebhookSignatureGuard {
  constructor(private readonly options: WebhookReceiverOptions) {}

  canActivate(context: HttpExecutionContextLike): boolean {
    const { secret, toleranceMs } = this.options;
    verifyNestRequest(context.switchToHttp().getRequest(), secret, { toleranceMs });
    return true;
  }
}
