import Fastify, { FastifyInstance } from 'fastify';
import {
  fastifyWebhookPlugin,
  fastifyWebhookPreHandler,
  rawBodyContentTypeParser,
  sign,
  webhookEventOf,
} from './index';
import { newSecret, post, unusualBody } from './test-support/loopback';

describe('Fastify helpers on a real server', () => {
  let secret: string;
  let app: FastifyInstance;
  let url: string;

  beforeEach(async () => {
    secret = newSecret();
    app = Fastify();
    // A JSON route outside the webhook scope keeps Fastify's own parser.
    app.post('/other', async (request) => ({ parsed: request.body }));
    app.register(async (scope) => {
      await scope.register(fastifyWebhookPlugin, { secret });
      scope.post('/webhooks', async (request) => {
        const event = webhookEventOf(request);
        return { id: event.id, data: event.data, bodyIsEvent: request.body === event };
      });
    });
    // Route-level use: the parser in a scope, the pre-handler on one route.
    app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, rawBodyContentTypeParser);
      scope.post(
        '/route-level',
        { preHandler: fastifyWebhookPreHandler({ secret, toleranceMs: 60_000 }) },
        async (request) => ({
          id: webhookEventOf(request).id,
        }),
      );
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterEach(() => app.close());

  it('verifies the raw bytes and exposes the event (plugin)', async () => {
    const body = unusualBody('whevent_fastify');
    const answer = await post(`${url}/webhooks`, body, { 'x-service-signature': sign(body, secret) });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      id: 'whevent_fastify',
      data: { jobId: 'job_1', jobType: 'txt2img', prompt: 'café ☕ naïve 𝄞 日本', cost: 1, tags: [] },
      bodyIsEvent: true,
    });
  });

  it('answers 400 with the reason', async () => {
    const body = unusualBody();
    const tampered = await post(`${url}/webhooks`, body.replace('\t', ' '), {
      'x-service-signature': sign(body, secret),
    });
    expect([tampered.status, tampered.json()]).toEqual([
      400,
      { error: 'webhook_rejected', reason: 'signature_mismatch' },
    ]);
    const unsigned = await post(`${url}/webhooks`, body);
    expect([unsigned.status, unsigned.json()]).toEqual([
      400,
      { error: 'webhook_rejected', reason: 'missing_header' },
    ]);
  });

  it('rejects an invalid JSON body only after (and by) the signature check', async () => {
    const notJson = '{"id": "whevent_x", ';
    const answer = await post(`${url}/webhooks`, notJson, {
      'x-service-signature': sign(notJson, newSecret()),
    });
    expect(answer.json()).toEqual({ error: 'webhook_rejected', reason: 'signature_mismatch' });
  });

  it('leaves JSON routes outside the webhook scope alone', async () => {
    const answer = await post(`${url}/other`, '{"a": 1}');
    expect([answer.status, answer.json()]).toEqual([200, { parsed: { a: 1 } }]);
  });

  it('works per route with rawBodyContentTypeParser + fastifyWebhookPreHandler', async () => {
    const body = unusualBody('whevent_route');
    expect(
      (await post(`${url}/route-level`, body, { 'x-service-signature': sign(body, secret) })).json(),
    ).toEqual({ id: 'whevent_route' });
    const stale = await post(`${url}/route-level`, body, {
      'x-service-signature': sign(body, secret, Date.now() - 61_000),
    });
    expect([stale.status, stale.json()]).toEqual([
      400,
      { error: 'webhook_rejected', reason: 'timestamp_too_old' },
    ]);
  });
});
