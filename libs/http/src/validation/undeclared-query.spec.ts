import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../testing/test-app.fixture';

describe('query parameters a route does not take', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it.each([
    ['a route without query parameters', '/v1/things/jobs/job_01JD6Z3Q9V8K2M4N6P8R0T2V4X?projectId=proj_1', ['projectId']],
    ['a route taking named ones', '/v1/things/slow?ms=1&projectId=x&b=2', ['projectId', 'b']],
    ['a route with a query DTO', '/v1/things?pageSize=1&projectId=x', ['projectId']],
  ])('are a 400 naming them on %s', async (_what, url, fields) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.apiError).toBe('validation_error');
    expect(Object.keys(body.infos.fields)).toEqual(fields);
    expect(body.infos.fields.projectId).toEqual(['property projectId should not exist']);
  });

  it('declared ones pass', async () => {
    expect((await app.inject({ method: 'GET', url: '/v1/things/slow?ms=1' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v1/things/jobs/job_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })).statusCode).toBe(200);
  });
});
