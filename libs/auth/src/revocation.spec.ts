import { NestFactory } from '@nestjs/core';
import { Global, Module, type ExecutionContext } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { IdentityRepository, IdentityService, type ApiKeyRecord } from '@genasset/identity';
import { ApiKeyCache } from './api-key-cache';
import { AuthGuard } from './auth.guard';
import { AuthModule } from './auth.module';

const KEY = 'key_01M81GAKBHCPMGK9XW7DMNAQJW';
const OTHER = 'key_01M81GAKC3T327K8JXMWG1DRMQ';
const record = (id: string): ApiKeyRecord => ({
  id,
  teamId: 'team_01M81GAKA7CRH697VHBK3DFV0B',
  projectId: null,
  role: 'admin',
  scopes: [],
  createdAt: new Date(0),
});

describe('ApiKeyCache.evictKey', () => {
  it('forgets every cached verification of one key, and only of that key', () => {
    const cache = new ApiKeyCache(30_000);
    cache.set(KEY, 'sk_one', record(KEY));
    cache.set(OTHER, 'sk_two', record(OTHER));
    cache.evictKey(KEY);
    expect(cache.get(KEY, 'sk_one')).toBeUndefined();
    expect(cache.get(OTHER, 'sk_two')).toEqual(record(OTHER));
  });
});

// A key revoked through this process's admin API must stop working here at once, not after
// AUTH_CACHE_TTL: the TTL is only the bound for *other* replicas (docs/runbook.md).
describe('revoking a key in this process', () => {
  it('is refused by the auth guard at once, though it was cached as verified', async () => {
    const rows = new Map<string, { id: string; revokedAt: Date | null }>([[KEY, { id: KEY, revokedAt: null }]]);
    const prisma = {
      apiKey: {
        findUnique: ({ where }: { where: { id: string } }) => {
          const row = rows.get(where.id);
          return Promise.resolve(row ? { id: row.id, revokedAt: row.revokedAt } : null);
        },
        updateMany: ({ where }: { where: { id: string } }) => {
          const row = rows.get(where.id);
          if (row && !row.revokedAt) row.revokedAt = new Date();
          return Promise.resolve({ count: row ? 1 : 0 });
        },
      },
    } as unknown as ConstructorParameters<typeof IdentityRepository>[0];
    const identity = new IdentityService(new IdentityRepository(prisma));
    // The secret check itself is not under test here: a key verifies until it is revoked.
    jest.spyOn(identity, 'verifyApiKey').mockImplementation((id) =>
      Promise.resolve(rows.get(id)?.revokedAt ? undefined : record(id)),
    );

    @Global()
    @Module({ providers: [{ provide: IdentityService, useValue: identity }], exports: [IdentityService] })
    class FakeIdentityModule {}

    @Module({ imports: [FakeIdentityModule, AuthModule.forRoot({ cacheTtlMs: 30_000 })] })
    class AppModule {}

    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const guard = app.get(AuthGuard);
    const context = (authorization: string) =>
      ({
        getHandler: () => function handler() {},
        getClass: () => class Controller {},
        switchToHttp: () => ({ getRequest: () => ({ headers: { authorization } }) }),
      }) as unknown as ExecutionContext;
    const basic = `Basic ${Buffer.from(`${KEY}:sk_secret`).toString('base64')}`;

    await expect(guard.canActivate(context(basic))).resolves.toBe(true); // now cached
    await expect(identity.revokeApiKey(KEY)).resolves.toMatchObject({ id: KEY });
    const refusal = await guard.canActivate(context(basic)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).getStatus()).toBe(401);
    await app.close();
  });
});
