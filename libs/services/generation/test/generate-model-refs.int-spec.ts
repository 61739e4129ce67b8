import type { Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(120_000);

/**
 * Every model id of a generate request is one the caller may use, not only the
 * model the mode runs: the models a job conditions on (`concepts[].modelId`,
 * describe-style's `modelId`) follow the rule of `modelId` — the caller's
 * project's or a public model, else the same 404 naming the field — and an
 * image field takes image assets only. Nothing is created or charged when refused.
 */
describe('generate: model ids and image inputs the caller may use', () => {
  let harness: GenerationHarness;
  let a: Tenant;
  let b: Tenant;
  let aPrivate: string;
  let aPublic: string;
  let bOwn: string;

  const createModel = async (owner: Tenant, body: Record<string, unknown>) => {
    const res = await harness.request('POST', '/v1/models', { auth: owner.auth.projectMember, body });
    if (res.status !== 200) throw new Error(`create model: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.model.id as string;
  };
  const post = (mode: string, body: unknown, query = '') =>
    harness.request('POST', `/v1/generate/${mode}${query}`, { auth: b.auth.projectMember, body });

  beforeAll(async () => {
    harness = await startGenerationHarness();
    a = await harness.tenant();
    b = await harness.tenant();
    aPrivate = await createModel(a, { name: 'A private' });
    aPublic = await createModel(a, { name: 'A public', privacy: 'public' });
    bOwn = await createModel(b, { name: 'B own' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('refuses another team’s private model as describe-style’s modelId: 404 naming modelId, no job', async () => {
    const before = await harness.countJobs(b.projectId);
    const res = await post('describe-style', { modelId: aPrivate });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ apiError: 'not_found', infos: { id: aPrivate, field: 'modelId' } });
    expect(await harness.countJobs(b.projectId)).toBe(before);
  });

  it('refuses another team’s private model as a concept: 404 naming concepts.0.modelId, no job', async () => {
    const before = await harness.countJobs(b.projectId);
    const res = await post('txt2img', {
      modelId: 'flux.1-dev',
      prompt: 'x',
      concepts: [{ modelId: aPrivate, scale: 1 }],
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      apiError: 'not_found',
      infos: { id: aPrivate, field: 'concepts.0.modelId' },
    });
    expect(await harness.countJobs(b.projectId)).toBe(before);
  });

  it('refuses a model id that does not exist, naming its field (dry runs too)', async () => {
    const missing = 'model_0000000000000000000000000';
    const concept = await post(
      'txt2img',
      {
        modelId: 'flux.1-dev',
        prompt: 'x',
        concepts: [
          { modelId: bOwn, scale: 1 },
          { modelId: missing, scale: 1 },
        ],
      },
      '?dryRun=true',
    );
    expect(concept.status).toBe(404);
    expect(concept.body.infos).toEqual({ id: missing, field: 'concepts.1.modelId' });
    const caption = await post('caption', { images: [await harness.uploadAsset(b)], modelId: missing });
    expect(caption.status).toBe(404);
    expect(caption.body.infos).toEqual({ id: missing, field: 'modelId' });
  });

  it('takes the caller’s own models and other teams’ public ones', async () => {
    const concepts = await post(
      'txt2img',
      {
        modelId: 'flux.1-dev',
        prompt: 'x',
        concepts: [
          { modelId: bOwn, scale: 1 },
          { modelId: aPublic, scale: 0.5 },
        ],
      },
      '?dryRun=true',
    );
    expect(concepts.status).toBe(269);
    expect((await post('describe-style', { modelId: aPublic })).status).toBe(200);
    expect((await post('describe-style', { modelId: bOwn })).status).toBe(200);
  });

  it('refuses a canvas given as an image: 400 naming the field, no job', async () => {
    const canvas = await harness.request('POST', '/v1/assets', {
      auth: b.auth.projectMember,
      body: { canvas: JSON.stringify({ layers: [] }), name: 'canvas' },
    });
    expect(canvas.status).toBe(200);
    const before = await harness.countJobs(b.projectId);
    const res = await post('img2img', { modelId: 'flux.1-dev', prompt: 'x', image: canvas.body.asset.id });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.infos.fields)).toEqual(['image']);
    expect(await harness.countJobs(b.projectId)).toBe(before);
  });
});
