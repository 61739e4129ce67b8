import {
  Controller,
  HttpCode,
  INestApplication,
  Module,
  Post,
  RawBodyRequest,
  Req,
  UseGuards,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import {
  sign,
  verifyNestRequest,
  WebhookConfigurationError,
  webhookEventOf,
  WebhookSignatureGuard,
  type NestLikeRequest,
} from './index';
import { newSecret, post, unusualBody } from './test-support/loopback';

const secret = newSecret();

@Controller()
class HooksController {
  @Post('webhooks')
  @HttpCode(200)
  // Nest's own request type: proves the structural NestLikeRequest accepts it.
  receive(@Req() req: RawBodyRequest<FastifyRequest>) {
    const event = verifyNestRequest(req, secret);
    return { id: event.id, data: event.data };
  }

  @Post('guarded')
  @HttpCode(200)
  @UseGuards(new WebhookSignatureGuard({ secret }))
  guarded(@Req() req: NestLikeRequest) {
    return { id: webhookEventOf(req).id };
  }
}

@Module({ controllers: [HooksController] })
class HooksModule {}

describe('NestJS helpers on a real server (FastifyAdapter, rawBody: true)', () => {
  let app: INestApplication;
  let url: string;
  beforeAll(async () => {
    app = await NestFactory.create(HooksModule, new FastifyAdapter(), { rawBody: true, logger: false });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => app.close());

  it('verifyNestRequest verifies req.rawBody and returns the event', async () => {
    const body = unusualBody('whevent_nest');
    const answer = await post(`${url}/webhooks`, body, { 'x-service-signature': sign(body, secret) });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ id: 'whevent_nest', data: { prompt: 'café ☕ naïve 𝄞 日本' } });
  });

  it("a rejection becomes a 400 through Nest's default exception filter", async () => {
    const body = unusualBody();
    const answer = await post(`${url}/webhooks`, body, { 'x-service-signature': sign(body, newSecret()) });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({
      statusCode: 400,
      message: expect.stringContaining('signature_mismatch'),
    });
  });

  it('WebhookSignatureGuard verifies before the handler runs', async () => {
    const body = unusualBody('whevent_guard');
    expect(
      (await post(`${url}/guarded`, body, { 'x-service-signature': sign(body, secret) })).json(),
    ).toEqual({ id: 'whevent_guard' });
    const old = await post(`${url}/guarded`, body, {
      'x-service-signature': sign(body, secret, Date.now() - 400_000),
    });
    expect([old.status, (old.json() as { message: string }).message]).toEqual([
      400,
      expect.stringContaining('timestamp_too_old'),
    ]);
  });

  it('without { rawBody: true } it is a configuration error (500), not a bad signature', () => {
    expect(() => verifyNestRequest({ headers: {} }, secret)).toThrow(WebhookConfigurationError);
  });
});
