import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '../bootstrap/create-http-app';

@Module({})
class EmptyModule {}

const INDEX = '<!doctype html><title>console</title><div id="root"></div>';

describe('the web console at /console', () => {
  let dir: string;
  let app: NestFastifyApplication;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
    app = await createHttpApp(EmptyModule, {
      serviceName: 'test',
      logLevel: 'silent',
      openapi: { title: 'Test' },
      consoleDir: dir,
    });
    await app.init();
  });
  afterEach(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const build = () => {
    mkdirSync(join(dir, 'static'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'static', 'index-abc123.js'), 'console.log(1)');
  };
  const get = (url: string) => app.inject({ method: 'GET', url });

  it('serves index.html, never cached, with a policy allowing scripts and API calls from this origin only', async () => {
    build();
    for (const url of ['/console', '/console/']) {
      const page = await get(url);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toBe(INDEX);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    }
  });

  it("answers the app's own routes with index.html, so a reload or a shared link opens the right screen", async () => {
    build();
    const deep = await get('/console/assets/asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X?type=uploaded');
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toBe(INDEX);
  });

  it('serves the hashed bundle for good, and a missing file is a 404 with the API error body', async () => {
    build();
    const script = await get('/console/static/index-abc123.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await get('/console/static/index-old.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ apiError: 'not_found', error: 'Console file not found' });
  });

  it('says how to build the console while it is not built, and serves it once built, without a restart', async () => {
    const before = await get('/console/assets');
    expect(before.statusCode).toBe(503);
    expect(before.body).toContain('npm run console:build');
    build();
    expect((await get('/console/assets')).body).toBe(INDEX);
  });

  it('leaves the API alone', async () => {
    build();
    const api = await get('/v1/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-security-policy']).toBeUndefined();
    expect(api.json()).toMatchObject({ apiError: 'not_found' });
  });
});
