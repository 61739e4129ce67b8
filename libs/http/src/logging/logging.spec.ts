import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, LogCapture } from '../testing/test-app.fixture';
import { sanitizeRequestId } from '../request-id/request-id';
import { requestLogContextState } from './request-log-context';

describe('request ids and logs', () => {
  let app: NestFastifyApplication;
  const logs = new LogCapture();
  beforeAll(async () => {
    app = await createTestApp(logs);
  });
  afterAll(() => app.close());

  const completed = (requestId: string) =>
    logs.lines.find((l) => l.requestId === requestId && l.msg === 'request completed');

  it('echoes a caller x-request-id and logs it as requestId with the service name', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/things/missing',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(completed('abc-123')).toMatchObject({
      service: 'test-service',
      level: 30,
      res: { statusCode: 404 },
    });
  });

  it('generates an id when none is given, on success and error responses alike', async () => {
    const ok = await app.inject({ method: 'GET', url: '/healthz' });
    const missing = await app.inject({ method: 'GET', url: '/nope' });
    for (const res of [ok, missing]) expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers['x-request-id']).not.toBe(missing.headers['x-request-id']);
  });

  it('sanitises a hostile x-request-id', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'a b\u0000"c<d>' },
    });
    expect(res.headers['x-request-id']).toBe('abcd');
    expect(sanitizeRequestId('x'.repeat(500))).toHaveLength(128);
    expect(sanitizeRequestId(' "" ')).toBeUndefined();
  });

  it('never logs credentials or URL signatures', async () => {
    await app.inject({
      method: 'GET',
      url: '/v1/things/missing?signature=deadbeef&expires=1',
      headers: {
        'x-request-id': 'secret-req',
        authorization: 'Basic c2VjcmV0OnNlY3JldA==',
        cookie: 'sid=s3cr3t',
      },
    });
    const line = completed('secret-req');
    expect(line).toBeDefined();
    const text = JSON.stringify(line);
    expect(text).not.toMatch(/c2VjcmV0OnNlY3JldA|s3cr3t|deadbeef/);
    expect(text).toContain('[redacted]');
  });

  it('masks any credential-looking query parameter or header, and keeps ordinary ones', async () => {
    const secrets = [
      'access_token',
      'api_key',
      'apiKey',
      'apiSecret',
      'secret',
      'password',
      'client_secret',
      'key',
      'sig',
    ];
    const query = secrets.map((name, i) => `${name}=QSECRET${i}`).join('&');
    const headers = [
      'x-internal-token',
      'x-api-secret',
      'x-auth-token',
      'api-key',
      'private-token',
      'x-session-id',
    ];
    await app.inject({
      method: 'GET',
      url: `/v1/things/missing?${query}&paginationToken=KEEP_PAGE&authorId=KEEP_AUTHOR`,
      headers: {
        'x-request-id': 'masked-req',
        'x-custom-note': 'KEEP_HEADER',
        ...Object.fromEntries(headers.map((name, i) => [name, `HSECRET${i}`])),
      },
    });
    const text = JSON.stringify(completed('masked-req'));
    expect(text).not.toMatch(/QSECRET|HSECRET/);
    expect(text).toMatch(/KEEP_PAGE[\s\S]*KEEP_AUTHOR/);
    expect(text).toContain('KEEP_HEADER');
  });

  it('keeps probes out of the info-level log', async () => {
    await app.inject({ method: 'GET', url: '/readyz', headers: { 'x-request-id': 'probe-1' } });
    await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'probe-2' } });
    expect(logs.lines.filter((l) => l.requestId === 'probe-1' || l.requestId === 'probe-2')).toEqual([]);
  });

  // The request log context while requests overlap (the same app: ids are unique per test).
  const line = (requestId: string, msg: string) =>
    logs.lines.find((l) => l.requestId === requestId && l.msg === msg);

  it('keeps each request its requestId on handler lines while others start and finish', async () => {
    const slow = app.inject({
      method: 'GET',
      url: '/v1/things/slow?ms=150',
      headers: { 'x-request-id': 'slow-1' },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Quick requests come and go while the slow one waits: each one's end
    // must not take the slow one's context away.
    for (const id of ['quick-1', 'quick-2', 'quick-3']) {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/things/slow?ms=0',
        headers: { 'x-request-id': id },
      });
      expect(res.statusCode).toBe(200);
      expect(line(id, 'slow finished')).toMatchObject({ context: 'Things' });
    }
    expect((await slow).statusCode).toBe(200);
    expect(line('slow-1', 'slow started')).toBeDefined();
    expect(line('slow-1', 'slow finished')).toBeDefined();
  });

  it('switches the context storage off once no request is in flight, and on again for the next', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(requestLogContextState()).toEqual({ inFlight: 0, storageEnabled: false });
    const res = await app.inject({
      method: 'GET',
      url: '/v1/things/slow?ms=0',
      headers: { 'x-request-id': 'again-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(line('again-1', 'slow started')).toBeDefined();
    expect(line('again-1', 'slow finished')).toBeDefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(requestLogContextState()).toEqual({ inFlight: 0, storageEnabled: false });
  });
});
