import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../testing/test-app.fixture';

describe('numeric query parameters', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it.each(['1e2', '1E1', '0x10', '0b11', '0o7', '%205', '5%20', '+5', '5.0', '1_0', 'Infinity', ''])(
    'pageSize=%s is a 400 naming pageSize',
    async (text) => {
      const res = await app.inject({ method: 'GET', url: `/v1/things?pageSize=${text}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        apiError: 'validation_error',
        infos: { fields: { pageSize: ['pageSize must be a decimal integer (digits only)'] } },
      });
    },
  );

  it('plain digits are read as the number they write, and the route’s bounds still apply', async () => {
    expect((await app.inject({ method: 'GET', url: '/v1/things?pageSize=10' })).json()).toEqual({ pageSize: 10 });
    expect((await app.inject({ method: 'GET', url: '/v1/things?pageSize=007' })).json()).toEqual({ pageSize: 7 });
    expect((await app.inject({ method: 'GET', url: '/v1/things' })).json()).toEqual({ pageSize: null });
    const over = await app.inject({ method: 'GET', url: '/v1/things?pageSize=101' });
    expect(over.json().infos.fields.pageSize).toEqual(['pageSize must not be greater than 100']);
  });
});
