import type { Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

// The registry's own routes on odd bodies (the full model flow is in
// libs/services/inference/test/models.int-spec.ts).
describe('/v1/models: odd bodies', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    harness.request(method, path, {
      auth: tenant.auth.projectAdmin,
      ...(body === undefined ? {} : { body }),
    });
  const createModel = async (body: Record<string, unknown> = { name: 'Odd' }) => {
    const res = await call('POST', '/v1/models', body);
    if (res.status !== 200) throw new Error(`create model: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.model as { id: string; updatedAt: string } & Record<string, unknown>;
  };

  it.each(['type', 'privacy', 'capabilities', 'parameters'])(
    'PUT /models/{modelId} with %s: null is a 400 naming it, and nothing changes',
    async (field) => {
      const model = await createModel({ name: 'Odd', parameters: { nbEpochs: 2 } });
      const res = await call('PUT', `/v1/models/${model.id}`, { name: 'Renamed', [field]: null });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.infos.fields)).toEqual([field]);
      const after = await call('GET', `/v1/models/${model.id}`);
      expect(after.body.model).toMatchObject({ name: 'Odd', updatedAt: model.updatedAt });
    },
  );

  it('PUT /models/{modelId}/tags is strict unless told otherwise (upstream default true)', async () => {
    const model = await createModel({ name: 'Tagged', tags: ['a'] });
    const again = await call('PUT', `/v1/models/${model.id}/tags`, { add: ['a', 'b'] });
    expect(again.status).toBe(400);
    expect(Object.keys(again.body.infos.fields)).toEqual(['add']);
    const absent = await call('PUT', `/v1/models/${model.id}/tags`, { delete: ['zz'] });
    expect(absent.status).toBe(400);
    expect(Object.keys(absent.body.infos.fields)).toEqual(['delete']);
    expect((await call('GET', `/v1/models/${model.id}`)).body.model.tags).toEqual(['a']);

    const lenient = await call('PUT', `/v1/models/${model.id}/tags`, {
      add: ['a', 'b'],
      delete: ['zz'],
      strict: false,
    });
    expect(lenient.status).toBe(200);
    expect(lenient.body).toEqual({ added: ['b'], deleted: [] });
  });

  it('refuses tags the comma-separated filter could never find, and one tag both added and deleted, as asset tags do', async () => {
    const created = await call('POST', '/v1/models', { name: 'Comma', tags: ['a,b'] });
    expect(created.status).toBe(400);
    expect(Object.keys(created.body.infos.fields)).toEqual(['tags']);
    const model = await createModel({ name: 'Spaced' });
    const added = await call('PUT', `/v1/models/${model.id}/tags`, { add: [' x'] });
    expect(added.status).toBe(400);
    expect(Object.keys(added.body.infos.fields)).toEqual(['add']);
    const both = await call('PUT', `/v1/models/${model.id}/tags`, {
      add: ['x'],
      delete: ['x'],
      strict: false,
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('tags cannot be both added and deleted: x');
  });

  it("GET /models takes upstream's blacklisted and loadedOnly: none blacklisted, none filtered by GPU", async () => {
    const model = await createModel({ name: 'Listed' });
    const ids = async (query: string) => {
      const res = await call('GET', `/v1/models${query}`);
      expect(res.status).toBe(200);
      return (res.body.models as { id: string }[]).map((m) => m.id);
    };
    expect(await ids('?blacklisted=true')).toEqual([]);
    expect(await ids('?blacklisted=false')).toContain(model.id);
    expect(await ids('?loadedOnly=true')).toContain(model.id);
    const bad = await call('GET', '/v1/models?loadedOnly=maybe');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.infos.fields)).toEqual(['loadedOnly']);
  });

  it('POST /generate/custom/{modelId}: an input named toString is not taken as given', async () => {
    const model = await createModel({
      name: 'Proto',
      inputs: [
        { name: 'prompt', type: 'string' },
        { name: 'toString', type: 'string' },
      ],
    });
    const res = await call('POST', `/v1/generate/custom/${model.id}`, { prompt: 'a cat' });
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ jobType: 'custom' });
  });

  // POST /v1/models/{modelId}/training-images at the 100-image limit (docs/models.md): it counts images, not repeats.
  it('adding images already on a full (or nearly full) model is not refused as going over the limit', async () => {
    const created = await call('POST', '/v1/models', { name: 'Full' });
    expect(created.status).toBe(200);
    const modelId = created.body.model.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) ids.push(await harness.uploadAsset(tenant));

    const first = await call('POST', `/v1/models/${modelId}/training-images`, { assetIds: ids.slice(0, 99) });
    expect(first.status).toBe(200);
    // 99 there: one repeated and one new make 100, within the limit.
    const mixed = await call('POST', `/v1/models/${modelId}/training-images`, {
      assetIds: [ids[0], ids[99]],
    });
    expect(mixed.status).toBe(200);
    expect(mixed.body.trainingImages.map((i: { id: string }) => i.id)).toEqual([ids[0], ids[99]]);
    // 100 there: adding one already there changes nothing and is answered as usual.
    const repeated = await call('POST', `/v1/models/${modelId}/training-images`, { assetId: ids[5] });
    expect(repeated.status).toBe(200);
    expect(repeated.body.trainingImage.id).toBe(ids[5]);
    // A 101st image is refused.
    const over = await call('POST', `/v1/models/${modelId}/training-images`, {
      assetIds: [ids[1], ids[100]],
    });
    expect(over.status).toBe(400);
    expect(over.body.infos.fields.assetIds[0]).toContain('at most 100 training images');
    expect((await call('GET', `/v1/models/${modelId}`)).body.model.trainingImagesNumber).toBe(100);
  });
});
