import type { Tenant } from '@genasset/testing';
import { pngDataUrl, startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(120_000);

// POST /v1/generate/custom/{modelId}: the route and its generic checks, for a
// registry model that declares no inputs (the input-driven validation matrix is
// in libs/services/inference/test/models.int-spec.ts).
describe('POST /v1/generate/custom/{modelId}', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let asset: string;
  let modelId: string;

  const createModel = async (owner: Tenant) => {
    const res = await harness.request('POST', '/v1/models', {
      auth: owner.auth.projectMember,
      body: { name: 'Any' },
    });
    if (res.status !== 200) throw new Error(`create model: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.model.id as string;
  };

  beforeAll(async () => {
    harness = await startGenerationHarness();
    tenant = await harness.tenant();
    asset = await harness.uploadAsset(tenant);
    modelId = await createModel(tenant);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const post = (body: unknown, query = '', id = modelId) =>
    harness.request('POST', `/v1/generate/custom/${id}${query}`, {
      auth: tenant.auth.projectMember,
      body,
    });

  it('creates a custom job with the model’s inputs, images resolved, any other field passed on', async () => {
    const audio = `data:audio/wav;base64,${Buffer.from('RIFF....WAVEfmt ').toString('base64')}`;
    const res = await post({
      prompt: 'a drum loop',
      numSamples: 2,
      image: asset,
      references: [await pngDataUrl()],
      audio,
      durationSeconds: 8,
      style: { tempo: 120 },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['creativeUnitsCost', 'creativeUnitsDiscount', 'job']);
    expect(res.body.job).toMatchObject({ jobType: 'custom', status: 'queued' });
    const input = res.body.job.metadata.input;
    expect(input).toMatchObject({
      generationMode: 'custom',
      prompt: 'a drum loop',
      image: asset,
      durationSeconds: 8,
      style: { tempo: 120 },
    });
    expect(input.audio).toMatch(/^generation-inputs\/.+\/audio\.wav$/);
    expect(input.references[0]).toMatch(/^generation-inputs\/.+\/references\.0\.png$/);
  });

  it('a dry run answers 200 (the only status the spec lists here) with the cost, creating nothing', async () => {
    const before = await harness.countJobs(tenant.projectId);
    const res = await post({ prompt: 'x', numSamples: 3 }, '?dryRun=true');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['creativeUnitsCost', 'creativeUnitsDiscount']);
    expect(await harness.countJobs(tenant.projectId)).toBe(before);
  });

  it.each([
    [{ prompt: 'x', numSamples: 0 }, 'numSamples'],
    [{ prompt: 42 }, 'prompt'],
    [{ 'bad name': 1 }, 'bad name'],
    [{ generationMode: 'txt2img' }, 'generationMode'],
    [[1, 2], '(body)'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.infos.fields)).toContain(field);
  });

  it('an asset of another project answers 404', async () => {
    const other = await harness.tenant();
    const res = await harness.request('POST', `/v1/generate/custom/${await createModel(other)}`, {
      auth: other.auth.projectMember,
      body: { image: asset },
    });
    expect(res.status).toBe(404);
    expect(res.body.infos).toEqual({ id: asset, field: 'image' });
  });

  it('a model that does not exist, or is another project’s private one, answers 404', async () => {
    expect((await post({ prompt: 'x' }, '', 'model_missing')).status).toBe(404);
    const other = await harness.tenant();
    expect((await post({ prompt: 'x' }, '', await createModel(other))).status).toBe(404);
  });

  it('an ill-formed model id answers 400', async () => {
    const res = await post({ prompt: 'x' }, '', 'model%20with%20spaces');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.infos.fields)).toEqual(['modelId']);
  });
});
