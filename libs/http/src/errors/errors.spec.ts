import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, LogCapture } from '../testing/test-app.fixture';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectErrorBody(body: Record<string, unknown>, apiError: string): void {
  expect(Object.keys(body).sort()).toEqual(['apiError', 'createdAt', 'error', 'id', 'infos', 'updatedAt']);
  expect(body.apiError).toBe(apiError);
  expect(typeof body.id).toBe('string');
  expect(typeof body.error).toBe('string');
  expect(typeof body.infos).toBe('object');
  expect(body.createdAt).toMatch(ISO);
  expect(body.updatedAt).toBe(body.createdAt);
}

describe('error bodies', () => {
  let app: NestFastifyApplication;
  const logs = new LogCapture();

  beforeAll(async () => {
    app = await createTestApp(logs);
  });
  afterAll(() => app.close());

  it('accepts a valid body and transforms it into the DTO', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://example.com/a.png', count: 2 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      received: { url: 'https://example.com/a.png', count: 2 },
      isInstance: true,
    });
  });

  it('names a missing field', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/things', payload: { count: 2 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectErrorBody(body, 'validation_error');
    expect(body.error).toContain('url must be a URL address');
    expect(Object.keys(body.infos.fields)).toEqual(['url']);
  });

  it('names an ill-typed field and a nested one', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://x.io', count: 'many', items: [{ url: 'nope' }] },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.infos.fields.count).toEqual(expect.arrayContaining(['count must be an integer number']));
    expect(body.infos.fields['items.0.url']).toEqual(['items.0.url must be a URL address']);
    expect(body.error).toContain('items.0.url must be a URL address');
  });

  it('refuses a NUL character anywhere in the body or query, naming where it is', async () => {
    const body = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://x.io', items: [{ url: 'https://y.io' }, { url: 'a\u0000b' }] },
    });
    expect(body.statusCode).toBe(400);
    expectErrorBody(body.json(), 'validation_error');
    expect(body.json().infos.fields).toEqual({
      'items.1.url': ['items.1.url must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates'],
    });
    const key = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://x.io', 'a\u0000': 1 },
    });
    expect(Object.keys(key.json().infos.fields)).toEqual(['a\u0000']);
    const query = await app.inject({ method: 'GET', url: '/v1/things/slow?ms=1%00' });
    expect(query.statusCode).toBe(400);
    expect(Object.keys(query.json().infos.fields)).toEqual(['ms']);
  });

  it('refuses half a surrogate pair (PostgreSQL jsonb cannot store it), and takes a whole pair', async () => {
    const lone = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json' },
      // JSON escapes: \ud800 alone is a lone high surrogate, \udc00 alone a lone low one.
      payload: '{"url":"https://x.io","items":[{"url":"https://y.io/\\ud800"},{"url":"a\\udc00b"}]}',
    });
    expect(lone.statusCode).toBe(400);
    expect(Object.keys(lone.json().infos.fields)).toEqual(['items.0.url']);
    const pair = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://x.io', items: [{ url: 'https://y.io/\ud83d\ude00' }] },
    });
    expect(pair.statusCode).toBe(201);
  });

  it('refuses an unknown field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://x.io', foo: 1 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectErrorBody(body, 'validation_error');
    expect(body.error).toBe('property foo should not exist');
    expect(body.infos.fields).toEqual({ foo: ['property foo should not exist'] });
  });

  it('answers bad JSON with 400', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"url": ',
    });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res.json(), 'invalid_json');
  });

  it('answers a body over the limit with 413', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://x.io/' + 'a'.repeat(2000) },
    });
    expect(res.statusCode).toBe(413);
    expectErrorBody(res.json(), 'payload_too_large');
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expectErrorBody(res.json(), 'unsupported_media_type');
  });

  it.each(['/v1/nope', '/nope', '/v1/things/missing/deeper'])(
    'answers unknown route %s with the 404 body',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expectErrorBody(res.json(), 'not_found');
    },
  );

  it('answers a malformed URL with the 400 body', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/things/%ZZ',
      headers: { 'x-request-id': 'bad-url' },
    });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res.json(), 'bad_request');
    expect(res.headers['x-request-id']).toBe('bad-url');
  });

  it('renders ApiError.notFound with its infos', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/things/missing' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expectErrorBody(body, 'not_found');
    expect(body).toMatchObject({ error: 'Thing not found', infos: { id: 'thing_1' } });
  });

  it('renders ApiError.conflict as 409', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/things/conflict' });
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expectErrorBody(body, 'conflict');
    expect(body).toMatchObject({ error: 'Thing already exists', infos: { url: 'https://example.com' } });
  });

  it('answers an unexpected error with a 500 that leaks nothing, and logs it with the error id', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/things/boom',
      headers: { 'x-request-id': 'req-boom' },
    });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expectErrorBody(body, 'internal_error');
    expect(body.error).toBe('Internal server error');
    expect(body.infos).toEqual({});
    expect(res.body).not.toMatch(/hunter2|db\.internal|at .*\.ts/);
    const logged = logs.lines.find((l) => l.errorId === body.id);
    expect(logged).toMatchObject({ requestId: 'req-boom', service: 'test-service', level: 50 });
    expect(JSON.stringify(logged)).toContain('hunter2');
  });

  it('answers a database too busy to start a transaction with a retryable 503 and Retry-After', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/things/busy' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    const body = res.json();
    expectErrorBody(body, 'service_unavailable');
    expect(body.error).toBe('The service is busy: try again in a moment');
  });

  it('gives each error its own id', async () => {
    const a = (await app.inject({ method: 'GET', url: '/v1/nope' })).json();
    const b = (await app.inject({ method: 'GET', url: '/v1/nope' })).json();
    expect(a.id).not.toBe(b.id);
  });
});
