import type { Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

// Presets, description, examples, public models and get-bulk (docs/models.md).
describe('/v1/models: presets and pages', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    [tenant, other] = [await harness.tenant(), await harness.tenant()];
  });
  afterAll(async () => {
    await harness?.close();
  });

  const call = (method: string, path: string, body?: unknown, who: Tenant | null = tenant) =>
    harness.request(method, path, {
      ...(who ? { auth: who.auth.projectAdmin } : {}),
      ...(body === undefined ? {} : { body }),
    });
  const ok = async (method: string, path: string, body?: unknown, who: Tenant = tenant) => {
    const res = await call(method, path, body, who);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const styled = async () =>
    (
      await ok('POST', '/v1/models', {
        name: 'Styled',
        inputs: [
          { name: 'prompt', type: 'string' },
          { name: 'style', type: 'string' },
        ],
      })
    ).model.id as string;
  const presetCount = async (modelId: string) =>
    Number((await harness.db.query<{ n: string }>('SELECT count(*)::text AS n FROM generation.model_presets WHERE model_id = $1', [modelId]))[0].n);

  it('a preset keeps a job’s parameters, one default per model, and a custom generation naming it gets them', async () => {
    const modelId = await styled();
    const { job } = await ok('POST', `/v1/generate/custom/${modelId}`, { prompt: 'a cat', style: 'ink' });
    const first = await ok('POST', `/v1/models/${modelId}/presets`, { inferenceId: job.jobId, isDefault: true });
    expect(first.preset).toMatchObject({
      modelId,
      ownerId: tenant.projectId,
      isDefault: true,
      parameters: { prompt: 'a cat', style: 'ink', type: 'txt2img' },
    });
    expect(first.preset.parameters).not.toHaveProperty('generationMode');
    const second = await ok('POST', `/v1/models/${modelId}/presets`, { inferenceId: job.jobId, isDefault: true });
    const { presets } = await ok('GET', `/v1/models/${modelId}/presets`);
    expect(presets.map((p: { id: string; isDefault: boolean }) => [p.id, p.isDefault])).toEqual([
      [first.preset.id, false],
      [second.preset.id, true],
    ]);
    const back = await ok('PUT', `/v1/models/${modelId}/presets/${first.preset.id}`, { isDefault: true });
    expect(back.preset.isDefault).toBe(true);

    const run = await ok('POST', `/v1/generate/custom/${modelId}`, { presetId: first.preset.id, prompt: 'a dog' });
    const { job: stored } = await ok('GET', `/v1/jobs/${run.job.jobId}`);
    expect(stored.metadata.input).toMatchObject({ prompt: 'a dog', style: 'ink' });
    expect(stored.metadata.input).not.toHaveProperty('presetId');

    expect(await ok('DELETE', `/v1/models/${modelId}/presets/${second.preset.id}`)).toEqual({});
    expect((await call('DELETE', `/v1/models/${modelId}/presets/${second.preset.id}`)).status).toBe(404);
  });

  // presetId on the modes whose body names a registry model (txt2img and its siblings), as on the custom route.
  const lora = async (who: Tenant = tenant) => (await ok('POST', '/v1/models', { name: 'Lora', type: 'flux.1-lora' }, who)).model.id as string;
  const presetOf = async (modelId: string, body: Record<string, unknown>, who: Tenant = tenant) => {
    const { job } = await ok('POST', '/v1/generate/txt2img', { modelId, ...body }, who);
    return (await ok('POST', `/v1/models/${modelId}/presets`, { inferenceId: job.jobId }, who)).preset.id as string;
  };

  it('txt2img and its siblings take presetId: the preset fills what the body leaves out, the body wins', async () => {
    const modelId = await lora();
    const presetId = await presetOf(modelId, { prompt: 'a cat', numSamples: 2, guidance: 5, negativePrompt: 'blur' });
    // No prompt in the body: the preset's (a required field of txt2img).
    const run = await ok('POST', '/v1/generate/txt2img', { modelId, presetId, guidance: 7 });
    const { job: stored } = await ok('GET', `/v1/jobs/${run.job.jobId}`);
    expect(stored.metadata.input).toMatchObject({ modelId, prompt: 'a cat', numSamples: 2, guidance: 7, negativePrompt: 'blur' });
    expect(stored.metadata.input).not.toHaveProperty('presetId');
    expect(run.inference).toMatchObject({ prompt: 'a cat', guidance: 7 });
    // A sibling: the preset made of a txt2img job, applied to a texture; the dry run prices the completed body.
    const texture = await ok('POST', '/v1/generate/txt2img-texture', { modelId, presetId, prompt: 'bricks' });
    expect((await ok('GET', `/v1/jobs/${texture.job.jobId}`)).job.metadata.input).toMatchObject({ prompt: 'bricks', numSamples: 2 });
    const priced = await call('POST', '/v1/generate/txt2img?dryRun=true', { modelId, presetId });
    const plain = await call('POST', '/v1/generate/txt2img?dryRun=true', { modelId, prompt: 'a cat', numSamples: 2, guidance: 5 });
    expect(priced.status).toBe(269);
    expect(priced.body).toEqual(plain.body);
  });

  it('refuses a bad presetId on txt2img with a 400 naming presetId, and creates no job', async () => {
    const [modelId, another] = [await lora(), await lora()];
    const presetOfAnother = await presetOf(another, { prompt: 'a dog' });
    const before = await harness.countJobs(tenant.projectId);
    const refused = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/v1/generate/txt2img', body);
      expect(res.status).toBe(400);
      return Object.keys(res.body.infos.fields);
    };
    expect(await refused({ modelId, presetId: 'preset_nope', prompt: 'x' })).toEqual(['presetId']);
    expect(await refused({ modelId, presetId: 42, prompt: 'x' })).toEqual(['presetId']);
    expect(await refused({ modelId, presetId: '', prompt: 'x' })).toEqual(['presetId']);
    // A preset of another model, and a base model (no presets).
    expect(await refused({ modelId, presetId: presetOfAnother, prompt: 'x' })).toEqual(['presetId']);
    expect(await refused({ modelId: 'flux.1-dev', presetId: presetOfAnother, prompt: 'x' })).toEqual(['presetId']);
    // Without a prompt of its own or from a preset, txt2img still requires one.
    expect(await refused({ modelId })).toEqual(['prompt']);
    expect(await refused({ modelId, presetId: 'preset_nope' })).toEqual(['presetId']);
    expect(await harness.countJobs(tenant.projectId)).toBe(before);
  });

  it("another tenant can use neither a private model's preset nor name it with a model of its own", async () => {
    const modelId = await lora();
    const presetId = await presetOf(modelId, { prompt: 'a cat' });
    const theirs = await lora(other);
    const before = await harness.countJobs(other.projectId);
    const foreignModel = await call('POST', '/v1/generate/txt2img', { modelId, presetId }, other);
    expect(foreignModel.status).toBe(404);
    const foreignPreset = await call('POST', '/v1/generate/txt2img', { modelId: theirs, presetId, prompt: 'x' }, other);
    expect(foreignPreset.status).toBe(400);
    expect(Object.keys(foreignPreset.body.infos.fields)).toEqual(['presetId']);
    expect(await harness.countJobs(other.projectId)).toBe(before);
  });

  it('refuses bad preset input with a 4xx naming the field, and writes nothing', async () => {
    const modelId = await styled();
    const missing = await call('POST', `/v1/models/${modelId}/presets`, {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.infos.fields)).toEqual(['inferenceId']);
    const unknown = await call('POST', `/v1/models/${modelId}/presets`, { inferenceId: 'job_nope' });
    expect(unknown.status).toBe(404);
    const badDefault = await call('PUT', `/v1/models/${modelId}/presets/preset_x`, { isDefault: 'yes' });
    expect(badDefault.status).toBe(400);
    expect(Object.keys(badDefault.body.infos.fields)).toEqual(['isDefault']);
    const badPreset = await call('POST', `/v1/generate/custom/${modelId}`, { presetId: 'preset_nope', prompt: 'x' });
    expect(badPreset.status).toBe(400);
    expect(Object.keys(badPreset.body.infos.fields)).toEqual(['presetId']);
    expect(await presetCount(modelId)).toBe(0);
  });

  it('another tenant cannot read, make or use the presets of a private model, nor use its jobs', async () => {
    const modelId = await styled();
    const { job } = await ok('POST', `/v1/generate/custom/${modelId}`, { prompt: 'a cat', style: 'ink' });
    const { preset } = await ok('POST', `/v1/models/${modelId}/presets`, { inferenceId: job.jobId });
    expect((await call('GET', `/v1/models/${modelId}/presets`, undefined, other)).status).toBe(404);
    expect((await call('PUT', `/v1/models/${modelId}/presets/${preset.id}`, { isDefault: true }, other)).status).toBe(404);
    expect((await call('DELETE', `/v1/models/${modelId}/presets/${preset.id}`, undefined, other)).status).toBe(404);
    expect((await call('POST', `/v1/generate/custom/${modelId}`, { presetId: preset.id }, other)).status).toBe(404);
    const theirs = (await ok('POST', '/v1/models', { name: 'Theirs' }, other)).model.id;
    const foreignJob = await call('POST', `/v1/models/${theirs}/presets`, { inferenceId: job.jobId }, other);
    expect(foreignJob.status).toBe(404);
    expect(await presetCount(theirs)).toBe(0);
    expect((await ok('GET', `/v1/models/${modelId}/presets`)).presets[0].isDefault).toBe(false);
  });

  it('description: markdown with the models and assets its tags name; unknown names are a 400', async () => {
    const modelId = await styled();
    const assetId = await harness.uploadAsset(tenant);
    const empty = await ok('GET', `/v1/models/${modelId}/description`);
    expect(empty).toEqual({ description: { value: '', models: [], assets: [] } });
    const value = `# Ink\nSee {model:${modelId}} and {asset:${assetId}}.`;
    const put = await ok('PUT', `/v1/models/${modelId}/description`, { description: value });
    expect(put.description.value).toBe(value);
    expect(put.description.models).toEqual([expect.objectContaining({ id: modelId, type: 'custom', privacy: 'private' })]);
    expect(put.description.assets).toEqual([expect.objectContaining({ id: assetId, kind: 'image' })]);
    const foreignAsset = await harness.uploadAsset(other);
    const bad = await call('PUT', `/v1/models/${modelId}/description`, { description: `{asset:${foreignAsset}}` });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.infos.fields)).toEqual(['description']);
    expect((await ok('GET', `/v1/models/${modelId}/description`)).description.value).toBe(value);
    expect((await call('PUT', `/v1/models/${modelId}/description`, { description: 'mine' }, other)).status).toBe(404);
  });

  it('examples: the assets in the given order; another project’s assets are refused', async () => {
    const modelId = await styled();
    const [a, b] = [await harness.uploadAsset(tenant), await harness.uploadAsset(tenant)];
    const put = await ok('PUT', `/v1/models/${modelId}/examples`, { assetIds: [b, a] });
    expect(put.examples.map((e: { asset: { id: string }; modelId: string }) => [e.modelId, e.asset.id])).toEqual([
      [modelId, b],
      [modelId, a],
    ]);
    expect((await ok('GET', `/v1/models/${modelId}`)).model.exampleAssetIds).toEqual([b, a]);
    const foreign = await call('PUT', `/v1/models/${modelId}/examples`, { assetIds: [await harness.uploadAsset(other)] });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.infos.fields)).toEqual(['assetIds']);
    const malformed = await call('PUT', `/v1/models/${modelId}/examples`, { assetIds: 'x' });
    expect(malformed.status).toBe(400);
    expect((await ok('GET', `/v1/models/${modelId}/examples`)).examples).toHaveLength(2);
    expect((await call('GET', `/v1/models/${modelId}/examples`, undefined, other)).status).toBe(404);
  });

  it('another team reading a public model’s page sees its non-private assets only', async () => {
    const modelId = (await ok('POST', '/v1/models', { name: 'Shown', privacy: 'public' })).model.id;
    const [hidden, shown] = [await harness.uploadAsset(tenant), await harness.uploadAsset(tenant)];
    await ok('PUT', `/v1/assets/${shown}`, { privacy: 'public' });
    await ok('PUT', `/v1/models/${modelId}/examples`, { assetIds: [hidden, shown] });
    await ok('PUT', `/v1/models/${modelId}/description`, { description: `{asset:${hidden}} {asset:${shown}}` });
    const examples = await ok('GET', `/v1/models/${modelId}/examples`, undefined, other);
    expect(examples.examples.map((e: { asset: { id: string } }) => e.asset.id)).toEqual([shown]);
    const description = await ok('GET', `/v1/models/${modelId}/description`, undefined, other);
    expect(description.description.assets.map((a: { id: string }) => a.id)).toEqual([shown]);
    expect((await call('PUT', `/v1/models/${modelId}/examples`, { assetIds: [] }, other)).status).toBe(403);
  });

  it('public models: listed and read without credentials, paged; private ones never', async () => {
    const pub = (await ok('POST', '/v1/models', { name: 'Pub', privacy: 'public', type: 'flux.1-lora' })).model.id;
    const pub2 = (await ok('POST', '/v1/models', { name: 'Pub2', privacy: 'public', type: 'flux.1-lora' }, other)).model.id;
    const priv = await styled();
    const page1 = await call('GET', '/v1/models/public?pageSize=1&types=flux.1-lora', undefined, null);
    expect(page1.status).toBe(200);
    expect(page1.body.models.map((m: { id: string }) => m.id)).toEqual([pub2]);
    const page2 = await call('GET', `/v1/models/public?pageSize=1&types=flux.1-lora&paginationToken=${page1.body.nextPaginationToken}`, undefined, null);
    expect(page2.body.models.map((m: { id: string }) => m.id)).toEqual([pub]);
    expect((await call('GET', `/v1/models/public/${pub}`, undefined, null)).body.model.id).toBe(pub);
    expect((await call('GET', `/v1/models/public/${priv}`, undefined, null)).status).toBe(404);
    const badBound = await call('GET', '/v1/models/public?updatedAfter=2020-01-01T00:00:00Z', undefined, null);
    expect(badBound.status).toBe(400);
    expect(Object.keys(badBound.body.infos.fields)).toEqual(['updatedAfter']);
    const asc = await call('GET', '/v1/models/public?sortDirection=asc&types=flux.1-lora', undefined, null);
    expect(asc.body.models.map((m: { id: string }) => m.id)).toEqual([pub, pub2]);
  });

  it('get-bulk: the readable models among the ids, in order; another tenant’s private ones are left out', async () => {
    const mine = await styled();
    const theirs = (await ok('POST', '/v1/models', { name: 'Private' }, other)).model.id;
    const theirsPublic = (await ok('POST', '/v1/models', { name: 'Open', privacy: 'public' }, other)).model.id;
    const res = await ok('POST', '/v1/models/get-bulk', { modelIds: [theirsPublic, theirs, mine, 'model_nope'] });
    expect(res.models.map((m: { id: string }) => m.id)).toEqual([theirsPublic, mine]);
    const minimal = await ok('POST', '/v1/models/get-bulk', { modelIds: [mine], minimal: true });
    expect(minimal.models).toEqual([{ id: mine, name: 'Styled', type: 'custom' }]);
    const bad = await call('POST', '/v1/models/get-bulk', { modelIds: [] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.infos.fields)).toEqual(['modelIds']);
  });
});
