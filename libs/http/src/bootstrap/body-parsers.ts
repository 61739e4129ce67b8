import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { JSON_MEDIA_TYPE, parseJsonBody } from './json-body';

/**
 * The app's request body parsers, replacing Fastify's and Nest's: JSON only
 * (see parseJsonBody), and for any other media type a 415 naming
 * application/json, answered without reading the body. Form posts and
 * `curl -d` (application/x-www-form-urlencoded) were parsed into an object
 * whose one key was the whole body, and text/plain into a string. A body-less
 * request says nothing about its type, so an empty body of any type is no body.
 * A route that reads another type registers its own parser for it: specific
 * types take precedence over the catch-all.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'string' }, (request, text, done) => {
    try {
      // A route that checks a signature over the bytes received (backend callbacks) asks for them
      // with `@RouteConfig({ rawBody: true })`; no other route pays for a second copy of its body.
      if ((request.routeOptions.config as { rawBody?: unknown } | undefined)?.rawBody === true)
        (request as RawBodyRequest).rawBody = Buffer.from(text as string, 'utf8');
      done(null, parseJsonBody(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  fastify.addContentTypeParser('*', (request: FastifyRequest, _payload, done) => {
    if (hasNoBody(request)) return done(null, undefined);
    done(ApiError.unsupportedMediaType(JSON_MEDIA_TYPE, request.headers['content-type']), undefined);
  });
}

/** A request whose route asked for its body's bytes (see registerBodyParsers). */
export type RawBodyRequest = FastifyRequest & { rawBody?: Buffer };

/** Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3). */
function hasNoBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return length === '0' || (length === undefined && request.headers['transfer-encoding'] === undefined);
}
