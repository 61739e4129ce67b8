import { WebhookConfigurationError } from './errors';
import type { WebhookEvent } from './events';
import {
  HeaderBag,
  isRejection,
  rejectionBody,
  signatureHeaderOf,
  verifyEvent,
  WebhookReceiverOptions,
} from './receive';

// Structural types: Fastify is not a dependency. Method syntax keeps them assignable
// from Fastify's own (richer) request, reply and instance types.

export interface FastifyLikeRequest {
  headers: HeaderBag;
  body?: unknown;
  /** Set by `rawBodyContentTypeParser`, or by NestJS's FastifyAdapter with `{ rawBody: true }`. */
  rawBody?: Buffer | string;
  webhookEvent?: WebhookEvent;
}

export interface FastifyLikeReply {
  code(statusCode: number): FastifyLikeReply;
  header(name: string, value: string): FastifyLikeReply;
  send(payload?: unknown): FastifyLikeReply;
}

export type ContentTypeParserDone = (error: Error | null, body?: unknown) => void;

export interface FastifyLikeInstance {
  hasContentTypeParser(contentType: string): boolean;
  removeContentTypeParser(contentType: string): unknown;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: (request: FastifyLikeRequest, body: Buffer, done: ContentTypeParserDone) => void,
  ): unknown;
  addHook(
    name: 'preHandler',
    hook: (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown>,
  ): unknown;
}

export interface FastifyWebhookOptions extends WebhookReceiverOptions {
  /** Body limit of the raw JSON parser in this scope; default: the server's `bodyLimit`. */
  bodyLimit?: number;
}

/**
 * Content-type parser keeping the bytes: `request.rawBody` = `request.body` = the Buffer.
 * Unverified bodies are never JSON-parsed; the pre-handler replaces `body` with the event.
 * `scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, rawBodyContentTypeParser)`
 * (remove the inherited JSON parser of that scope first).
 */
export function rawBodyContentTypeParser(
  request: FastifyLikeRequest,
  body: Buffer,
  done: ContentTypeParserDone,
): void {
  request.rawBody = body;
  done(null, body);
}

/**
 * `preHandler` hook: verifies the raw body, sets `request.webhookEvent` (and `request.body`
 * to the event), or answers 400 `{ error: "webhook_rejected", reason }`.
 * Needs the raw bytes in `request.rawBody` (or a Buffer/string `request.body`).
 */
export function fastifyWebhookPreHandler(options: WebhookReceiverOptions) {
  const { secret, toleranceMs } = options;
  return async (request: FastifyLikeRequest, reply: FastifyLikeReply): Promise<unknown> => {
    const raw = request.rawBody ?? request.body;
    if (!Buffer.isBuffer(raw) && typeof raw !== 'string') {
      throw new WebhookConfigurationError(
        'no raw body on this request: register fastifyWebhookPlugin in the scope of the webhook route (or use rawBodyContentTypeParser)',
      );
    }
    try {
      const event = verifyEvent(raw, signatureHeaderOf(request.headers), secret, { toleranceMs });
      request.webhookEvent = event;
      request.body = event;
      return undefined;
    } catch (error) {
      if (!isRejection(error)) throw error;
      return reply.code(400).header('content-type', 'application/json').send(rejectionBody(error.reason));
    }
  };
}

/**
 * Fastify plugin acting on the scope that registers it (like `fastify-plugin`): that scope's
 * `application/json` parser keeps the raw bytes and every route in it is verified. Register it
 * inside an encapsulated scope that holds only the webhook route(s):
 *
 * ```ts
 * app.register(async (scope) => {
 *   await scope.register(fastifyWebhookPlugin, { secret });
 *   scope.post('/webhooks', async (request) => { const event = webhookEventOf(request); … });
 * });
 * ```
 */
export function fastifyWebhookPlugin(
  instance: FastifyLikeInstance,
  options: FastifyWebhookOptions,
  done: (error?: Error) => void,
): void {
  try {
    if (instance.hasContentTypeParser('application/json'))
      instance.removeContentTypeParser('application/json');
    const parserOptions =
      options.bodyLimit === undefined
        ? { parseAs: 'buffer' as const }
        : { parseAs: 'buffer' as const, bodyLimit: options.bodyLimit };
    instance.addContentTypeParser('application/json', parserOptions, rawBodyContentTypeParser);
    instance.addHook('preHandler', fastifyWebhookPreHandler(options));
    done();
  } catch (error) {
    done(error as Error);
  }
}
// What `fastify-plugin` would set: apply to the registering scope instead of a child one.
Object.assign(fastifyWebhookPlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: '@genasset/webhooks',
});
