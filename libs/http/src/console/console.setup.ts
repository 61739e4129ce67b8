import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error';
import { renderErrorBody } from '../errors/api-error-body';

export const CONSOLE_PATH = '/console';

/**
 * The web console's files are static and talk to the public API from the browser, so no
 * credential passes through here: scripts, styles and API calls only from this origin; images
 * also from object storage (presigned URLs may be on another host).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>genasset console: not built</title>
<h1>The console is not built</h1>
<p>Build it from the repository root with <code>npm run console:build</code>, then reload this page
(<code>npm start</code> and <code>npm test</code> build it when it is missing or outdated).</p>`;

/**
 * Serves the web console (apps/console, built by Vite into `dir`) at /console: hashed files under
 * /console/static/ cached for good, any other path without a file extension answered with
 * index.html so the app's own routes survive a reload or a shared link. Whether the build exists
 * is checked per request: building while the process runs needs no restart. Must run before
 * `app.init()`.
 */
export function setupConsole(app: NestFastifyApplication, dir: string): void {
  const index = join(dir, 'index.html');
  const consoleRoutes = async (scope: FastifyInstance): Promise<void> => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      void reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      void reply.header('x-content-type-options', 'nosniff');
      void reply.header('referrer-policy', 'no-referrer');
      return payload;
    });
    await scope.register(fastifyStatic, {
      root: dir,
      prefix: '/',
      cacheControl: false,
      // The build replaces files under new names; only index.html must always be fetched afresh.
      setHeaders: (res, path) =>
        res.setHeader(
          'cache-control',
          path.startsWith(join(dir, 'static')) ? 'public, max-age=31536000, immutable' : 'no-cache',
        ),
    });
    scope.setNotFoundHandler((request, reply) => {
      const lastSegment = request.url.split('?')[0].split('/').pop() ?? '';
      if (!existsSync(index)) {
        return reply
          .code(503)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(NOT_BUILT);
      }
      if ((request.method === 'GET' || request.method === 'HEAD') && !lastSegment.includes('.')) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.code(404).send(renderErrorBody(ApiError.notFound('Console file')));
    });
  };
  // Nest pins its own fastify copy, whose instance type differs from the one @fastify/static
  // augments (as in create-http-app.ts): hence `as never`.
  void app
    .getHttpAdapter()
    .getInstance()
    .register(consoleRoutes as never, { prefix: CONSOLE_PATH });
}
