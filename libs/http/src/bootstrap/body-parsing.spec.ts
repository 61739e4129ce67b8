import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../testing/test-app.fixture';
import { MAX_JSON_DEPTH } from './json-body';

const JSON_TYPE = { 'content-type': 'application/json' };

/** `depth` nested arrays around a string: `[["x"]]` is 2 levels. */
const nested = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;

describe('request bodies', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp(undefined, 1024 * 1024);
  });
  afterAll(() => app.close());

  describe('an empty body with Content-Type: application/json is no body', () => {
    it.each(['DELETE', 'PUT'] as const)('%s answers as if no body was sent', async (method) => {
      const res = await app.inject({ method, url: '/v1/things/one', headers: JSON_TYPE });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ body: null });
    });

    it('also with a charset and a blank body, and with any other type', async () => {
      for (const [type, payload] of [
        ['application/json; charset=utf-8', ''],
        ['application/json', ' \r\n'],
        ['application/x-www-form-urlencoded', ''],
      ]) {
        const res = await app.inject({ method: 'DELETE', url: '/v1/things/one', headers: { 'content-type': type }, payload });
        expect([type, res.statusCode]).toEqual([type, 200]);
      }
    });

    it('a route that needs a body names its fields, not the content type', async () => {
      const res = await app.inject({ method: 'POST', url: '/v1/things', headers: JSON_TYPE });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ apiError: 'validation_error', infos: { fields: { url: expect.any(Array) } } });
    });
  });

  describe('a body that is not JSON is 415 naming application/json', () => {
    it.each([
      ['a form post (curl -d)', 'application/x-www-form-urlencoded', 'url=https://x.io', 'application/x-www-form-urlencoded'],
      ['text/plain holding JSON', 'text/plain', '{"url":"https://x.io"}', 'text/plain'],
      ['multipart', 'multipart/form-data; boundary=x', '--x--', 'multipart/form-data; boundary=x'],
    ])('%s', async (_what, type, payload, received) => {
      const res = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': type }, payload });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({
        apiError: 'unsupported_media_type',
        error: `Content-Type ${received} is not accepted: send the body as JSON with Content-Type: application/json`,
        infos: { expected: 'application/json', received },
      });
    });

    it('a body without a Content-Type', async () => {
      const res = await app.inject({ method: 'POST', url: '/v1/things', payload: Buffer.from('{"url":"https://x.io"}') });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ apiError: 'unsupported_media_type', infos: { expected: 'application/json' } });
    });
  });

  describe('refused keys', () => {
    it('__proto__ is named as refused, wherever it is', async () => {
      for (const [payload, field] of [
        ['{"url":"https://x.io","__proto__":{"admin":true}}', '__proto__'],
        ['{"url":"https://x.io","items":[{"url":"https://y.io","__proto__":{}}]}', 'items.0.__proto__'],
      ]) {
        const res = await app.inject({ method: 'POST', url: '/v1/things', headers: JSON_TYPE, payload });
        expect(res.statusCode).toBe(400);
        const body = res.json();
        expect(body).toMatchObject({ apiError: 'validation_error' });
        expect(body.infos.fields).toEqual({ [field]: [`property ${field} is refused: the key __proto__ is never accepted`] });
        expect(body.error).not.toMatch(/not valid JSON/);
      }
    });

    it('constructor.prototype too', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/things',
        headers: JSON_TYPE,
        payload: '{"url":"https://x.io","constructor":{"prototype":{}}}',
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().infos.fields)).toEqual(['constructor.prototype']);
    });

    it('bad JSON is still invalid_json', async () => {
      const res = await app.inject({ method: 'POST', url: '/v1/things', headers: JSON_TYPE, payload: '{"url": ' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ apiError: 'invalid_json', error: 'Request body is not valid JSON' });
    });
  });

  describe(`nesting is limited to ${MAX_JSON_DEPTH} levels`, () => {
    it('5,000 levels is a 400, not a stack overflow', async () => {
      for (const payload of [nested(5000), `{"url":"https://x.io","items":${nested(5000)}}`]) {
        const res = await app.inject({ method: 'POST', url: '/v1/things', headers: JSON_TYPE, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          apiError: 'bad_request',
          error: `Request body is nested more than ${MAX_JSON_DEPTH} levels deep`,
          infos: { maxDepth: MAX_JSON_DEPTH },
        });
      }
    });

    it('exactly the limit is parsed (and judged by the route), one more is refused', async () => {
      const at = await app.inject({ method: 'POST', url: '/v1/things/open', headers: JSON_TYPE, payload: nested(MAX_JSON_DEPTH) });
      expect(at.statusCode).toBe(201);
      const over = await app.inject({ method: 'POST', url: '/v1/things/open', headers: JSON_TYPE, payload: nested(MAX_JSON_DEPTH + 1) });
      expect(over.statusCode).toBe(400);
    });
  });
});
