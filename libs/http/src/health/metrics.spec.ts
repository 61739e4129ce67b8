import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../testing/test-app.fixture';

describe('GET /metrics', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('serves the Prometheus text format outside /v1, without credentials', async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('# TYPE process_cpu_seconds_total counter');
    expect((await app.inject({ method: 'GET', url: '/v1/metrics' })).statusCode).toBe(404);
  });

  it('counts requests by route template and status, unknown paths as one "unmatched" route', async () => {
    const before = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    await app.inject({ method: 'GET', url: '/v1/things/missing' });
    await app.inject({ method: 'GET', url: '/v1/things/boom' });
    await app.inject({ method: 'GET', url: '/v1/things/boom' });
    await app.inject({ method: 'GET', url: '/v1/no/such/path/123' });
    const body = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const count = (labels: string, text = body) =>
      Number(
        new RegExp(`^http_server_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1] ?? 0,
      );
    expect(count('method="GET",route="/v1/things/missing",status_code="404"')).toBe(1);
    expect(count('method="GET",route="/v1/things/boom",status_code="500"')).toBe(2);
    const unmatched = 'method="GET",route="unmatched",status_code="404"';
    expect(count(unmatched) - count(unmatched, before)).toBe(1);
    expect(body).not.toContain('/v1/no/such/path');
  });
});
