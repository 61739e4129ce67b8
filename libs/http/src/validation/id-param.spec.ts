import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../testing/test-app.fixture';
import { ID_PARAMS, checkIdParam, idPattern } from './id-param';

describe('@IdParam: one rule for a malformed id', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it.each(['notajob', 'job_', 'job_a-b', 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X', `job_${'A'.repeat(65)}`, 'job_a%20b'])(
    '%s is a 400 naming jobId',
    async (id) => {
      const res = await app.inject({ method: 'GET', url: `/v1/things/jobs/${id}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        apiError: 'validation_error',
        error: 'jobId must be a job id (job_ followed by letters and digits)',
        infos: { fields: { jobId: ['jobId must be a job id (job_ followed by letters and digits)'] } },
      });
    },
  );

  it('is judged before the body, whatever the body holds', async () => {
    for (let round = 0; round < 5; round++) {
      const res = await app.inject({ method: 'PUT', url: '/v1/things/jobs/notajob', payload: { count: 'many' } });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().infos.fields)).toEqual(['jobId']);
    }
    const ok = await app.inject({ method: 'PUT', url: '/v1/things/jobs/job_1', payload: { url: 'https://x.io' } });
    expect(ok.json()).toEqual({ jobId: 'job_1', url: 'https://x.io' });
  });

  it('a well-formed id reaches the handler', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/things/jobs/job_01JD6Z3Q9V8K2M4N6P8R0T2V4X' });
    expect(res.json()).toEqual({ jobId: 'job_01JD6Z3Q9V8K2M4N6P8R0T2V4X' });
  });

  it('documents the parameter once, with its pattern', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const params = doc.paths['/v1/things/jobs/{jobId}'].get.parameters;
    expect(params).toEqual([
      expect.objectContaining({ name: 'jobId', in: 'path', required: true, schema: expect.objectContaining({ pattern: '^job_[0-9A-Za-z]{1,64}$' }) }),
    ]);
  });

  it('checkIdParam is the same rule for ids a guard reads', () => {
    expect(checkIdParam('teamId', 'team_01JD6Z3Q9V8K2M4N6P8R0T2V4X')).toBe('team_01JD6Z3Q9V8K2M4N6P8R0T2V4X');
    expect(() => checkIdParam('teamId', undefined)).toThrow('teamId must be a team id (team_ followed by letters and digits)');
    for (const name of Object.keys(ID_PARAMS) as (keyof typeof ID_PARAMS)[]) {
      expect(idPattern(name).test(`${ID_PARAMS[name].prefix}_01JD6Z3Q9V8K2M4N6P8R0T2V4X`)).toBe(true);
    }
  });
});
