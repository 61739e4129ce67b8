import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, readiness } from '../testing/test-app.fixture';
import { ReadinessRegistry } from './readiness.registry';

describe('health probes', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());
  afterEach(() => Object.assign(readiness, { fail: false, hang: false }));

  it('answers /healthz with 200 outside the /v1 prefix', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/v1/healthz' })).statusCode).toBe(404);
  });

  it('answers the probes whatever query a probe or scraper adds (cache-busters are not API input)', async () => {
    for (const url of ['/healthz?_=1', '/readyz?probe=lb', '/metrics?name[]=x'])
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('answers /readyz with 200 when every check passes', async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { 'fake-db': 'ok' } });
  });

  it('answers /readyz with 503 naming the failing check', async () => {
    readiness.fail = true;
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', checks: { 'fake-db': 'connection refused' } });
  });

  it('fails a check that hangs past its timeout', async () => {
    readiness.hang = true;
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.statusCode).toBe(503);
    expect(res.json().checks['fake-db']).toBe('timed out after 200 ms');
  });

  it('accepts checks registered at runtime and refuses duplicate names', async () => {
    const registry = app.get(ReadinessRegistry);
    const remove = registry.register('broker', async () => {
      throw new Error('not connected');
    });
    expect(() => registry.register('broker', async () => undefined)).toThrow(/already registered/);
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toEqual({ 'fake-db': 'ok', broker: 'not connected' });
    remove();
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('shows the details a passing check gives beside its ok, and none of a failing one', async () => {
    const registry = app.get(ReadinessRegistry);
    let failing = false;
    const remove = registry.register('search', async () => {
      if (failing) throw new Error('catalog unreadable');
      return 'exact scan (pgvector not installed)';
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ok',
        checks: { 'fake-db': 'ok', search: 'ok' },
        details: { search: 'exact scan (pgvector not installed)' },
      });
      failing = true;
      const failed = await app.inject({ method: 'GET', url: '/readyz' });
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toEqual({ status: 'unavailable', checks: { 'fake-db': 'ok', search: 'catalog unreadable' } });
    } finally {
      remove();
    }
  });
});

describe('ReadinessRegistry', () => {
  it('reports unready once shutting down', async () => {
    const registry = new ReadinessRegistry();
    expect(await registry.run()).toEqual({ ready: true, checks: {} });
    registry.markShuttingDown();
    expect(await registry.run()).toEqual({ ready: false, checks: { shutdown: 'shutting down' } });
  });
});
