import { openApiResponseChecker, type OpenApiDocument } from './openapi-checker';

const document: OpenApiDocument = {
  paths: {
    '/v1/things/{thingId}': {
      get: {
        responses: {
          '200': {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingResponse' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      ThingResponse: {
        type: 'object',
        required: ['id', 'createdAt'],
        properties: { id: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
      },
    },
  },
};

describe('openApiResponseChecker', () => {
  const check = openApiResponseChecker(document);

  it('passes an answer that matches its route, status and schema', () => {
    expect(check('GET', '/v1/things/t_1?x=1', 200, { id: 't_1', createdAt: '2026-01-01T00:00:00.000Z' })).toEqual(
      [],
    );
  });

  it('names what is wrong: a body off its schema, an undocumented status, an undocumented route', () => {
    expect(check('GET', '/v1/things/t_1', 200, { id: 1, createdAt: 'yesterday' })).toEqual([
      'GET /v1/things/{thingId} 200: /id must be string {"type":"string"}',
      'GET /v1/things/{thingId} 200: /createdAt must match format "date-time" {"format":"date-time"}',
    ]);
    expect(check('GET', '/v1/things/t_1', 404, {})).toEqual(['GET /v1/things/{thingId}: status 404 not documented']);
    expect(check('POST', '/v1/things/t_1', 200, {})).toEqual(['POST /v1/things/t_1: route not documented']);
  });
});
