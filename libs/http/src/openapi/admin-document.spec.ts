import type { OpenAPIObject } from '@nestjs/swagger';
import { splitAdminDocument } from './admin-document';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });

function generated(): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 'genasset test', version: '2026-01-01T00:00:00Z' },
    security: [{ Authorizer: [] }],
    paths: {
      '/v1/things': { get: { responses: { 200: { description: '', ...json('ThingList') }, 401: { description: '', ...json('ApiErrorResponse') } } } },
      '/admin/v1/teams': {
        post: {
          security: [],
          requestBody: json('CreateTeamDto'),
          responses: { 200: { description: '', ...json('TeamResponse') }, 401: { description: '', ...json('ApiErrorResponse') } },
        },
      },
    },
    components: {
      securitySchemes: { Authorizer: { type: 'http', scheme: 'basic' } },
      schemas: {
        ThingList: { type: 'object', properties: { things: { type: 'array', items: ref('Thing') } } },
        Thing: { type: 'object' },
        ApiErrorResponse: { type: 'object' },
        CreateTeamDto: { type: 'object' },
        TeamResponse: { type: 'object', properties: { team: ref('Team') } },
        Team: { type: 'object' },
        Unreferenced: { type: 'object' },
      },
    },
  };
}

describe('splitAdminDocument', () => {
  it('keeps the admin paths, and the schemas only they use, out of the public document', () => {
    const { public: doc } = splitAdminDocument(generated(), 'genasset test admin API');
    expect(Object.keys(doc.paths)).toEqual(['/v1/things']);
    expect(Object.keys(doc.components!.schemas!).sort()).toEqual(['ApiErrorResponse', 'Thing', 'ThingList', 'Unreferenced']);
    expect(doc.security).toEqual([{ Authorizer: [] }]);
  });

  it('makes the admin document of the admin paths and what they reference, behind the admin token', () => {
    const { admin } = splitAdminDocument(generated(), 'genasset test admin API');
    expect(admin!.info).toMatchObject({ title: 'genasset test admin API', version: '2026-01-01T00:00:00Z' });
    expect(Object.keys(admin!.paths)).toEqual(['/admin/v1/teams']);
    expect(Object.keys(admin!.components!.schemas!).sort()).toEqual(['ApiErrorResponse', 'CreateTeamDto', 'Team', 'TeamResponse']);
    expect(admin!.components!.securitySchemes).toEqual({ AdminToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(admin!.security).toEqual([{ AdminToken: [] }]);
    expect(admin!.paths['/admin/v1/teams'].post!.security).toEqual([{ AdminToken: [] }]);
  });

  it('has no admin document for an app without admin routes', () => {
    const doc = generated();
    delete doc.paths['/admin/v1/teams'];
    const split = splitAdminDocument(doc, 'x');
    expect(split.admin).toBeUndefined();
    expect(Object.keys(split.public.components!.schemas!)).toHaveLength(7);
  });
});
