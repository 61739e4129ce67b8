import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface RootIndex {
  name: string;
  version: string;
  /** Where to go from here: the reference page, the documents, the health probe. */
  links: Record<string, string>;
}

/**
 * `GET /`: a browser (it asks for HTML) is sent to the reference page; any other
 * client gets this JSON index of where things are. Fastify routes it directly:
 * it is neither under `/v1` nor part of the API the documents describe.
 */
export function serveRootIndex(app: INestApplication, index: RootIndex): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const body = JSON.stringify(index);
  fastify.get('/', (request: FastifyRequest, reply: FastifyReply) => {
    if (wantsHtml(request.headers.accept) && index.links.docs) return reply.redirect(index.links.docs, 302);
    return reply.type('application/json; charset=utf-8').send(body);
  });
}

function wantsHtml(accept: string | undefined): boolean {
  return /\btext\/html\b/i.test(accept ?? '');
}
