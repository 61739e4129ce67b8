import { openApiResponseChecker, type Tenant } from '@genasset/testing';
import { startCollectionHarness, type CollectionHarness } from './support/collection-harness';

/**
 * The served OpenAPI document tells the truth about the collection routes:
 * every real answer (successes and errors) matches the documented status and
 * schema, and the request schemas state the rules the validation pipe applies.
 */
describe('collections: the OpenAPI document matches the routes', () => {
  let h: CollectionHarness;
  let a: Tenant;
  let doc: any;
  let check: ReturnType<typeof openApiResponseChecker>;
  beforeAll(async () => {
    h = await startCollectionHarness();
    a = await h.tenant();
    const res = await h.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    check = openApiResponseChecker(doc);
  });
  afterAll(() => h?.close());

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    auth: string | null = a.auth.projectMember,
  ) => {
    const res = await h.request(method, path, {
      ...(auth ? { auth } : {}),
      ...(body === undefined ? {} : { body }),
    });
    return { status: res.status, body: res.body, problems: check(method, path, res.status, res.body) };
  };

  it('answers every collection route, successes and errors, as documented', async () => {
    const assetId = await h.createAsset(a);
    const model = await h.request('POST', '/v1/models', { auth: a.auth.projectMember, body: { name: 'm' } });
    expect(model.status).toBe(200);
    const modelId: string = model.body.model.id;
    const created = await call('POST', '/v1/collections', { name: 'Heroes' });
    const id: string = created.body.collection.id;
    const calls = [
      created,
      await call('POST', '/v1/collections', {}),
      await call('POST', '/v1/collections', { name: 'x' }, null),
      await call('GET', '/v1/collections'),
      await call('GET', '/v1/collections?pageSize=1'),
      await call('GET', '/v1/collections?pageSize=0'),
      await call('GET', `/v1/collections/${id}`),
      await call('GET', '/v1/collections/collection_0'),
      await call('GET', '/v1/collections/not-an-id'),
      await call('PUT', `/v1/collections/${id}`, { name: 'Villains', thumbnail: assetId }),
      await call('PUT', `/v1/collections/${id}`, { thumbnail: null }),
      await call('PUT', `/v1/collections/${id}`, {}),
      await call('PUT', `/v1/collections/${id}`, { thumbnail: 'asset_0' }),
      await call('PUT', `/v1/collections/${id}/assets`, { assetIds: [assetId] }),
      await call('PUT', `/v1/collections/${id}/assets`, { assetIds: ['asset_0'] }),
      await call('DELETE', `/v1/collections/${id}/assets`, { assetIds: [assetId] }),
      await call('DELETE', `/v1/collections/${id}/assets`, { assetIds: [] }),
      await call('PUT', `/v1/collections/${id}/models`, { modelIds: [modelId] }),
      await call('PUT', `/v1/collections/${id}/models`, { modelIds: ['model_0'] }),
      await call('DELETE', `/v1/collections/${id}/models`, { modelIds: [modelId] }),
      await call('DELETE', `/v1/collections/${id}/models`, { modelIds: ['nope'] }),
      await call('DELETE', `/v1/collections/${id}`),
      await call('DELETE', `/v1/collections/${id}`),
    ];
    expect(calls.map((c) => c.status)).toEqual([
      200, 400, 401, 200, 200, 400, 200, 404, 400, 200, 200, 400, 404, 200, 404, 200, 400, 200, 404, 200, 400,
      200, 404,
    ]);
    expect(calls.flatMap((c) => c.problems)).toEqual([]);
  });

  it('documents GET /collections pageSize as the pipe applies it: integer, default 10, 1 to 100', async () => {
    const pageSize = doc.paths['/v1/collections'].get.parameters.find((p: any) => p.name === 'pageSize');
    expect(pageSize.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect((await call('GET', '/v1/collections?pageSize=1.5')).status).toBe(400);
    expect((await call('GET', '/v1/collections?pageSize=100')).status).toBe(200);
    expect((await call('GET', '/v1/collections?pageSize=101')).status).toBe(400);
  });

  it('documents the id lists as the pipe applies them: 1 to 49 ids of the right kind', async () => {
    const collection = await h.createCollection(a);
    const { schemas } = doc.components;
    for (const [name, field, prefix] of [
      ['AssetIdsDto', 'assetIds', 'asset'],
      ['ModelIdsDto', 'modelIds', 'model'],
    ] as const) {
      const schema = schemas[name];
      expect(schema.additionalProperties).toBe(false);
      expect(schema.properties[field]).toMatchObject({ type: 'array', minItems: 1, maxItems: 49 });
      const pattern = new RegExp(schema.properties[field].items.pattern);
      expect(pattern.test(`${prefix}_01JD6Z3Q9V8K2M4N6P8R0T2V4X`)).toBe(true);
      expect(pattern.test('collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X')).toBe(false);
      const tooMany = Array.from({ length: 50 }, (_, i) => `${prefix}_${i}`);
      const path = `/v1/collections/${collection.id}/${field === 'assetIds' ? 'assets' : 'models'}`;
      expect((await call('PUT', path, { [field]: tooMany })).status).toBe(400);
      expect((await call('PUT', path, { [field]: ['collection_1'] })).status).toBe(400);
    }
  });

  it('documents the create and update bodies as the pipe applies them', async () => {
    const { schemas } = doc.components;
    expect(schemas.CreateCollectionDto).toMatchObject({ required: ['name'], additionalProperties: false });
    expect(new RegExp(schemas.CreateCollectionDto.properties.name.pattern).test('   ')).toBe(false);
    expect(schemas.UpdateCollectionDto.additionalProperties).toBe(false);
    expect(new RegExp(schemas.UpdateCollectionDto.properties.thumbnail.pattern).test('model_1')).toBe(false);
    // name and/or thumbnail: an empty body is refused.
    const put = doc.paths['/v1/collections/{collectionId}'].put;
    expect(put.requestBody.content['application/json'].schema.minProperties).toBe(1);
    expect(Object.keys(put.responses)).toContain('503');
    const collectionId = doc.paths['/v1/collections/{collectionId}'].get.parameters.find(
      (p: any) => p.name === 'collectionId',
    );
    expect(new RegExp(collectionId.schema.pattern).test('not-an-id')).toBe(false);
    expect((await call('POST', '/v1/collections', { name: 'x', color: 'red' })).status).toBe(400);
  });
});
