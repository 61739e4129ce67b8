import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../testing/test-app.fixture';
import { openApiFingerprint } from './api-fingerprint';
import { API_VERSION } from './api-version';

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

  it('states the recorded API version, the same in every build of the same code', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(doc.info.version).toBe(API_VERSION.version);
    const again = await createTestApp();
    try {
      const rebuilt = (await again.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
      expect(rebuilt.info.version).toBe(doc.info.version);
      expect(openApiFingerprint(rebuilt)).toBe(openApiFingerprint(doc));
    } finally {
      await again.close();
    }
  });

  it('fingerprints what the API is: a changed route or schema changes it, key order and info.version do not', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const fingerprint = openApiFingerprint(doc);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const reordered = { ...doc, paths: Object.fromEntries(Object.entries(doc.paths).reverse()), info: { ...doc.info, version: '2000-01-01T00:00:00Z' } };
    expect(openApiFingerprint(reordered)).toBe(fingerprint);
    const { ['/v1/things/boom']: _removed, ...fewerPaths } = doc.paths;
    expect(openApiFingerprint({ ...doc, paths: fewerPaths })).not.toBe(fingerprint);
    const renamed = structuredClone(doc);
    renamed.components.schemas.CreateThingDto.properties.link = renamed.components.schemas.CreateThingDto.properties.url;
    delete renamed.components.schemas.CreateThingDto.properties.url;
    expect(openApiFingerprint(renamed)).not.toBe(fingerprint);
  });

  it('answers GET / with an index of where things are, and sends a browser to /docs', async () => {
    const index = await app.inject({ method: 'GET', url: '/', headers: { accept: '*/*' } });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^application\/json/);
    expect(index.headers['x-request-id']).toBeDefined();
    expect(index.json()).toEqual({
      name: 'Test API',
      version: API_VERSION.version,
      links: { docs: '/docs', openapi: '/v1/openapi.json', health: '/healthz' },
    });
    const browser = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe('/docs');
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
