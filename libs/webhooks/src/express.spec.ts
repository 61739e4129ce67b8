import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { expressWebhookMiddleware, sign, webhookEventOf } from './index';
import {
  collect,
  Loopback,
  newSecret,
  post,
  sendJson,
  startServer,
  unusualBody,
} from './test-support/loopback';

// Express is not a dependency: a real node:http server runs a connect-style chain, and
// `expressRaw` / `expressJson` do what express.raw() / express.json() do to `req.body`.
type Req = IncomingMessage & { body?: unknown };
type Middleware = (req: Req, res: ServerResponse, next: (error?: unknown) => void) => void;

function app(...chain: Middleware[]): RequestListener {
  return (req, res) => {
    let i = 0;
    const next = (error?: unknown) => {
      if (error)
        return sendJson(res, (error as { statusCode?: number }).statusCode ?? 500, {
          error: (error as Error).name,
        });
      chain[i++]?.(req, res, next);
    };
    next();
  };
}
const expressRaw: Middleware = (req, _res, next) => {
  if (!String(req.headers['content-type']).startsWith('application/json')) return next();
  collect(req).then((body) => {
    req.body = body;
    next();
  }, next);
};
const expressJson: Middleware = (req, _res, next) => {
  collect(req).then((body) => {
    req.body = JSON.parse(body.toString());
    next();
  }, next);
};
const handler: Middleware = (req, res) => {
  const event = webhookEventOf(req);
  sendJson(res, 200, { id: event.id, type: event.type, data: event.data });
};

describe('expressWebhookMiddleware on a real node:http server', () => {
  let secret: string;
  const servers: Loopback[] = [];
  const serve = async (...chain: Middleware[]) => {
    const server = await startServer(app(...chain));
    servers.push(server);
    return server.url;
  };
  beforeEach(() => {
    secret = newSecret();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('verifies the raw Buffer from express.raw() and sets req.webhookEvent', async () => {
    const url = await serve(expressRaw, expressWebhookMiddleware({ secret }), handler);
    const body = unusualBody('whevent_express');
    const answer = await post(url, body, { 'x-service-signature': sign(body, secret) });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({
      id: 'whevent_express',
      type: 'generation.completed',
      data: { prompt: 'café ☕ naïve 𝄞 日本' },
    });
  });

  it('reads the body itself when no parser ran on the route', async () => {
    const url = await serve(expressWebhookMiddleware({ secret }), handler);
    const body = unusualBody('whevent_noparser');
    const answer = await post(url, body, { 'x-service-signature': sign(body, secret) });
    expect(answer.json()).toMatchObject({ id: 'whevent_noparser' });
  });

  it.each([
    ['signature_mismatch', (body: string, secret: string) => sign(`${body} `, secret)],
    ['timestamp_too_old', (body: string, secret: string) => sign(body, secret, Date.now() - 301_000)],
    ['timestamp_in_future', (body: string, secret: string) => sign(body, secret, Date.now() + 301_000)],
    ['malformed_header', (body: string, secret: string) => `${sign(body, secret)}.x`],
  ])('answers 400 with reason %s', async (reason, header) => {
    const url = await serve(expressRaw, expressWebhookMiddleware({ secret }), handler);
    const body = unusualBody();
    const answer = await post(url, body, { 'x-service-signature': header(body, secret) });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ error: 'webhook_rejected', reason });
  });

  it('answers 400 missing_header without the header, and invalid_payload for a signed non-event', async () => {
    const url = await serve(expressRaw, expressWebhookMiddleware({ secret }), handler);
    expect((await post(url, unusualBody())).json()).toEqual({
      error: 'webhook_rejected',
      reason: 'missing_header',
    });
    const notEvent = '{ "hello": "world" }';
    const answer = await post(url, notEvent, { 'x-service-signature': sign(notEvent, secret) });
    expect([answer.status, answer.json()]).toEqual([
      400,
      { error: 'webhook_rejected', reason: 'invalid_payload' },
    ]);
  });

  it('passes a configuration error (500) when express.json() already consumed the body', async () => {
    const url = await serve(expressJson, expressWebhookMiddleware({ secret }), handler);
    const body = unusualBody();
    const answer = await post(url, body, { 'x-service-signature': sign(body, secret) });
    expect([answer.status, answer.json()]).toEqual([500, { error: 'WebhookConfigurationError' }]);
  });
});
