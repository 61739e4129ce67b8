import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../testing/test-app.fixture';

describe('OpenAPI and reference page', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('serves an OpenAPI 3 document with an ISO 8601 UTC version and the Authorizer scheme', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Test API');
    expect(doc.info.version).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(new Date(doc.info.version).toISOString()).toBe(doc.info.version);
    expect(doc.components.securitySchemes.Authorizer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'basic' }),
    );
    expect(doc.security).toEqual([{ Authorizer: [] }]);
  });

  it('documents routes under /v1 and leaves the probes out', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toContain('/v1/things');
    expect(Object.keys(doc.paths).some((p) => p.includes('healthz') || p.includes('readyz'))).toBe(false);
    expect(doc.components.schemas.ApiErrorResponse.required.sort()).toEqual([
      'apiError',
      'createdAt',
      'error',
      'id',
      'infos',
      'updatedAt',
    ]);
  });

  it('says `security: []` on operations that declare no scheme, instead of inheriting the global one', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    // The test app has no auth guard: every route answers without credentials.
    expect((await app.inject({ method: 'GET', url: '/v1/things/missing' })).statusCode).toBe(404);
    expect(doc.paths['/v1/things/missing'].get.security).toEqual([]);
    expect(doc.paths['/v1/things'].post.security).toEqual([]);
  });

  it('closes the schema of a body the validation pipe checks, and only that one', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { url: 'https://example.com', extra: 1 },
    });
    expect(refused.statusCode).toBe(400);
    expect(doc.components.schemas.CreateThingDto.additionalProperties).toBe(false);
    const open = await app.inject({
      method: 'POST',
      url: '/v1/things/open',
      payload: { anything: 'a', extra: 1 },
    });
    expect(open.statusCode).toBe(201);
    expect(doc.components.schemas.OpenThingDto.additionalProperties).toBeUndefined();
    // Response schemas are never closed: responses may gain fields.
    expect(doc.components.schemas.ApiErrorResponse.additionalProperties).toBeUndefined();
  });

  it('types every path parameter as a required string, as a URL path segment is', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const [param] = doc.paths['/v1/things/owners/{ownerId}'].get.parameters;
    expect(param).toMatchObject({ name: 'ownerId', in: 'path', required: true, schema: { type: 'string' } });
  });

  it('serves the Swagger UI page and its assets from the app itself', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger-ui');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const url = asset.startsWith('/') ? asset : `/docs/${asset.replace(/^\.\/(docs\/)?/, '')}`;
      const res = await app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    }
    const init = await app.inject({ method: 'GET', url: '/docs/swagger-ui-init.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('"title": "Test API"');
  });
});
