import { UpstreamContract, type SwaggerDocument } from './upstream-contract';

const document: SwaggerDocument = {
  basePath: '/v1',
  paths: {
    '/things/{thingId}': {
      get: { responses: { '200': { schema: { $ref: '#/definitions/GetThingResponse' } } } },
      parameters: {} as never,
    },
    '/generate/things': {
      post: {
        responses: {
          '200': { schema: { $ref: '#/definitions/GetThingResponse' } },
          '269': { schema: { $ref: '#/definitions/DryRunResponse' } },
        },
      },
    },
  },
  definitions: {
    GetThingResponse: {
      type: 'object',
      required: ['thing'],
      properties: {
        thing: {
          type: 'object',
          required: ['id', 'kind'],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string', enum: ['image', 'audio'] },
            seed: { type: 'string' },
            width: { type: 'number', minimum: 1024, maximum: '2048' },
          },
        },
      },
    },
    DryRunResponse: { type: 'object', required: ['creativeUnitsCost'], properties: { creativeUnitsCost: { type: 'number' } } },
  },
};

describe('UpstreamContract', () => {
  const contract = new UpstreamContract(document);

  it('keys operations as served, under basePath, with the statuses upstream lists', () => {
    expect(contract.operations).toEqual([
      { key: 'GET /v1/things/{thingId}', method: 'GET', path: '/v1/things/{thingId}', statuses: ['200'] },
      { key: 'POST /v1/generate/things', method: 'POST', path: '/v1/generate/things', statuses: ['200', '269'] },
    ]);
  });

  it('accepts a body that decodes, extra properties included (upstream schemas are open)', () => {
    expect(contract.check('GET /v1/things/{thingId}', 200, { thing: { id: 't', kind: 'image', seed: '42', extra: 1 } })).toEqual([]);
  });

  it('names a missing required property, a wrong type and a value outside the enum', () => {
    const problems = contract.check('GET /v1/things/{thingId}', 200, { thing: { kind: 'video', seed: 42 } });
    expect(problems).toEqual([
      expect.stringMatching(/^GET \/v1\/things\/\{thingId\} 200 \(GetThingResponse\): \/thing must have required property 'id'/),
      expect.stringMatching(/\/thing\/kind must be equal to one of the allowed values/),
      expect.stringMatching(/\/thing\/seed must be string/),
    ]);
  });

  it('does not check value ranges: upstream puts request ranges, some as strings, in response shapes', () => {
    expect(contract.check('GET /v1/things/{thingId}', 200, { thing: { id: 't', kind: 'image', width: 512 } })).toEqual([]);
    expect(contract.check('GET /v1/things/{thingId}', 200, { thing: { id: 't', kind: 'image', width: '512' } })).toEqual([
      expect.stringMatching(/\/thing\/width must be number/),
    ]);
  });

  it('checks each status against its own schema, and refuses a status upstream does not list', () => {
    expect(contract.check('POST /v1/generate/things', 269, { creativeUnitsCost: 3 })).toEqual([]);
    expect(contract.check('POST /v1/generate/things', 269, {})).toEqual([
      expect.stringMatching(/269 \(DryRunResponse\): \(body\) must have required property 'creativeUnitsCost'/),
    ]);
    expect(contract.check('GET /v1/things/{thingId}', 269, {})).toEqual([
      'GET /v1/things/{thingId} 269: upstream lists only 200',
    ]);
    expect(contract.check('GET /v1/nothing', 200, {})).toEqual(['GET /v1/nothing: not an upstream operation']);
  });

  it('checks against another definition when a deviation names one', () => {
    expect(contract.check('GET /v1/things/{thingId}', 200, { creativeUnitsCost: 3 }, { definition: 'DryRunResponse' })).toEqual([]);
  });

  it('finds the upstream operations a served OpenAPI document also has, whatever its parameters are named', () => {
    expect(
      contract.servedBy({
        paths: { '/v1/things/{id}': { get: {}, delete: {} }, '/v1/generate/other': { post: {} } },
      }),
    ).toEqual(['GET /v1/things/{thingId}']);
  });

  it('loads the committed upstream document: 105 operations under /v1', () => {
    const upstream = UpstreamContract.load();
    expect(upstream.operations).toHaveLength(105);
    expect(upstream.operation('POST /v1/generate/custom/{modelId}')?.statuses).toEqual(['200']);
    expect(upstream.operation('POST /v1/generate/pixelate')?.statuses).toEqual(['200', '269']);
    // Every response schema compiles (an upstream quirk Ajv cannot read fails here, not mid-contract).
    const unreadable = upstream.operations.flatMap((o) =>
      o.statuses.flatMap((status) => upstream.check(o.key, Number(status), {}).filter((p) => !p.includes(' must ')))
    );
    expect(unreadable).toEqual([]);
  });
});
