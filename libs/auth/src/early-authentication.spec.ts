import type { AddressInfo } from 'node:net';
import { Body, Controller, Global, Module, Post, Get } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RouteConfig } from '@nestjs/platform-fastify';
import { IsString } from 'class-validator';
import { createHttpApp } from '@genasset/http';
import { IdentityService, type ApiKeyRecord } from '@genasset/identity';
import { answerBeforeBody } from '@genasset/testing';
import { Authenticated, CurrentPrincipal } from './auth.decorators';
import { AuthModule } from './auth.module';
import type { Principal } from './principal';

const KEY = 'key_01M81GAKBHCPMGK9XW7DMNAQJW';
const basic = (secret: string) => `Basic ${Buffer.from(`${KEY}:${secret}`).toString('base64')}`;
const MiB = 1024 * 1024;

class UploadBody {
  @IsString()
  data!: string;
}

@Controller('uploads')
@Authenticated()
class UploadsController {
  @Post()
  @RouteConfig({ bodyLimit: 64 * MiB })
  upload(@Body() body: UploadBody, @CurrentPrincipal() principal: Principal) {
    return { bytes: body.data.length, kind: principal.kind };
  }
}
// A route added after the class decorator ran, as the generate controller adds one per mode.
Object.defineProperty(UploadsController.prototype, 'late', {
  value: function late() {
    return { late: true };
  },
});
Post('late')(UploadsController.prototype, 'late', Object.getOwnPropertyDescriptor(UploadsController.prototype, 'late')!);

@Controller('assets')
class AssetsController {
  @Get()
  @Authenticated({ publicAccess: true })
  list(@CurrentPrincipal() principal: Principal) {
    return { kind: principal.kind };
  }

  /** No credentials needed: the hook leaves it alone. */
  @Post('open')
  open(@Body() body: unknown) {
    return { received: body !== undefined };
  }
}

describe('credentials before bodies', () => {
  let app: NestFastifyApplication;
  let url: string;
  const verified: string[] = [];

  beforeAll(async () => {
    const identity = {
      verifyApiKey: (key: string, secret: string): Promise<ApiKeyRecord | undefined> => {
        verified.push(secret);
        return Promise.resolve(
          secret === 'sk_right'
            ? { id: key, teamId: 'team_01M81GAKA7CRH697VHBK3DFV0B', projectId: null, role: 'admin', scopes: [], createdAt: new Date(0) }
            : undefined,
        );
      },
      onApiKeyRevoked: () => undefined,
    };
    @Global()
    @Module({ providers: [{ provide: IdentityService, useValue: identity }], exports: [IdentityService] })
    class FakeIdentityModule {}
    @Module({
      imports: [FakeIdentityModule, AuthModule.forRoot({ cacheTtlMs: 0 })],
      controllers: [UploadsController, AssetsController],
    })
    class AppModule {}
    app = await createHttpApp(AppModule, {
      serviceName: 'auth-test',
      logLevel: 'silent',
      openapi: { title: 't', description: 't' },
    });
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const partial = (path: string, headers: Record<string, string>, declaredBytes = 32 * MiB) =>
    answerBeforeBody(url, {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...headers },
      declaredBytes,
      sentBytes: 64 * 1024,
      timeoutMs: 3000,
    });

  it.each([
    ['no credentials', {}, 'Authentication required: Authorization: Basic base64(<API_KEY>:<API_SECRET>)'],
    ['a wrong secret', { authorization: basic('sk_wrong') }, 'Invalid API key or secret'],
    ['a malformed header', { authorization: 'Bearer x' }, 'Malformed Authorization header: expected Authorization: Basic base64(<API_KEY>:<API_SECRET>)'],
    ['the public token on a key-only route', { authorization: 'public-auth-token' }, 'public-auth-token is not accepted on this route; use API key credentials'],
  ])('%s: answered 401 while 32 MiB of body are still unsent', async (_what, headers, message) => {
    const answer = await partial('/v1/uploads', headers);
    expect(answer?.status).toBe(401);
    expect(answer?.headers['x-request-id']).toEqual(expect.any(String));
    const body = JSON.parse(answer!.body);
    expect(Object.keys(body).sort()).toEqual(['apiError', 'createdAt', 'error', 'id', 'infos', 'updatedAt']);
    expect(body).toMatchObject({ apiError: 'unauthorized', error: message, infos: {} });
  });

  it('also on a route the controller gained after its decorators ran', async () => {
    expect((await partial('/v1/uploads/late', {}))?.status).toBe(401);
  });

  it('with valid credentials the body is awaited, then read under the route’s own limit', async () => {
    expect(await partial('/v1/uploads', { authorization: basic('sk_right') })).toBeUndefined();
    const data = 'a'.repeat(2 * MiB);
    const res = await fetch(`${url}/v1/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('sk_right') },
      body: JSON.stringify({ data }),
    });
    expect([res.status, await res.json()]).toEqual([201, { bytes: 2 * MiB, kind: 'api-key' }]);
  });

  it('verifies a key once per request: the guard takes the principal the hook found', async () => {
    verified.length = 0;
    await fetch(`${url}/v1/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('sk_right') },
      body: '{"data":"x"}',
    });
    expect(verified).toEqual(['sk_right']);
  });

  it('public-auth-token still opens a public-access route, and routes without @Authenticated are untouched', async () => {
    const res = await fetch(`${url}/v1/assets`, { headers: { authorization: 'public-auth-token' } });
    expect([res.status, await res.json()]).toEqual([200, { kind: 'public' }]);
    // Within the app's 1 MiB limit: the body is awaited, as before.
    expect(await partial('/v1/assets/open', {}, 512 * 1024)).toBeUndefined();
  });
});
