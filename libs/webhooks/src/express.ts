import type { IncomingMessage } from 'node:http';
import { WebhookConfigurationError } from './errors';
import { readRawBody } from './node-http';
import {
  HeaderBag,
  isRejection,
  rejectionBody,
  signatureHeaderOf,
  verifyEvent,
  WebhookReceiverOptions,
} from './receive';
import type { WebhookEvent } from './events';

/** The parts of an Express request the middleware uses (Express itself is not a dependency). */
export interface ExpressLikeRequest {
  headers: HeaderBag;
  /** A Buffer when `express.raw()` ran; when no parser read the stream, the middleware reads it. */
  body?: unknown;
  webhookEvent?: WebhookEvent;
}

/** The parts of a response the middleware uses: a Node `ServerResponse`, which Express's `res` is. */
export interface NodeLikeResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

export type NextFunction = (error?: unknown) => void;

export interface ExpressWebhookOptions extends WebhookReceiverOptions {
  /** Only when no body parser ran and the middleware reads the stream itself. Default 1 MiB. */
  limitBytes?: number;
}

/**
 * Express middleware: verifies `X-SERVICE-SIGNATURE` over the raw body, sets `req.webhookEvent`
 * and calls `next()`; otherwise answers 400 `{ error: "webhook_rejected", reason }`.
 *
 * Mount it after `express.raw({ type: 'application/json' })` on the webhook route, and keep
 * `express.json()` off that route: once JSON has been parsed the original bytes are gone and
 * re-serialising them does not reproduce what was signed.
 *
 * ```ts
 * app.post('/webhooks', express.raw({ type: 'application/json' }), expressWebhookMiddleware({ secret }), handler);
 * ```
 * Without any body parser on the route, the middleware reads the body itself. A body that a JSON
 * parser already turned into an object is a wiring mistake: `next(WebhookConfigurationError)` → 500.
 */
export function expressWebhookMiddleware(options: ExpressWebhookOptions) {
  const { secret, toleranceMs, limitBytes } = options;
  return (req: ExpressLikeRequest, res: NodeLikeResponse, next: NextFunction): void => {
    rawBodyOf(req, limitBytes)
      .then((raw) => {
        req.webhookEvent = verifyEvent(raw, signatureHeaderOf(req.headers), secret, { toleranceMs });
        next();
      })
      .catch((error: unknown) => {
        if (!isRejection(error)) return next(error);
        res.statusCode = 400;
        res.setHeader('content-type', 'application/json');
        res.end(rejectionBody(error.reason));
      });
  };
}

async function rawBodyOf(req: ExpressLikeRequest, limitBytes: number | undefined): Promise<Buffer | string> {
  const { body } = req;
  if (Buffer.isBuffer(body) || typeof body === 'string') return body;
  const stream = req as unknown as IncomingMessage;
  // No parser consumed the stream (none mounted, or its content type did not match): read it here.
  if (typeof stream.on === 'function' && !stream.readableEnded && !stream.readableDidRead)
    return readRawBody(stream, { limitBytes });
  throw new WebhookConfigurationError(
    'req.body is not the raw body: mount express.raw({ type: "application/json" }) before the webhook middleware and keep express.json() off this route',
  );
}
