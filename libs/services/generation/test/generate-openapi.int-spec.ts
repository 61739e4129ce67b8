import { MODE_EXAMPLES, openApiResponseChecker, type Tenant } from '@genasset/testing';
import { MODE_REGISTRY } from '../src/generate/modes/mode-registry';
import { pngDataUrl, startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(120_000);

// The OpenAPI document describes every generate route as the spec lists it.
describe('generate routes in /v1/openapi.json', () => {
  let harness: GenerationHarness;
  let doc: any;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    doc = (await harness.request('GET', '/v1/openapi.json')).body;
  });
  afterAll(async () => {
    await harness?.close();
  });

  const DEPRECATED = ['prompt-editing', 'remove-background', 'upscale'];
  const NO_ORIGINAL_ASSETS = ['caption', 'describe-style', 'prompt', 'translate'];

  it.each(MODE_REGISTRY.map((m) => [m.name]))('documents POST /v1/generate/%s', (name) => {
    const operation = doc.paths[`/v1/generate/${name}`]?.post;
    expect(operation).toBeDefined();
    expect(operation.deprecated === true).toBe(DEPRECATED.includes(name));
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '269', '400', '402', '404']),
    );
    expect(operation.requestBody.content['application/json'].schema.$ref).toMatch(
      /^#\/components\/schemas\/\w+Body$/,
    );
    const query = operation.parameters
      .filter((p: { in: string }) => p.in === 'query')
      .map((p: { name: string }) => p.name);
    expect(query).toEqual(expect.arrayContaining(['dryRun', 'projectId']));
    expect(query.includes('originalAssets')).toBe(!NO_ORIGINAL_ASSETS.includes(name));
    expect(operation.security).toEqual([{ Authorizer: [] }]);
  });

  it('the deprecated operations are exactly those of the spec', () => {
    const deprecated = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/generate/'))
      .filter(([, item]) => (item as any).post?.deprecated)
      .map(([path]) => path.replace('/v1/generate/', ''));
    expect(deprecated.sort()).toEqual(DEPRECATED);
  });

  it('documents the custom-model route with 200 only and no originalAssets', () => {
    const operation = doc.paths['/v1/generate/custom/{modelId}'].post;
    expect(operation.responses['200']).toBeDefined();
    expect(operation.responses['269']).toBeUndefined();
    const names = operation.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['modelId', 'dryRun']));
    expect(names).not.toContain('originalAssets');
  });

  it('documents the body fields with their ranges and the 269 shape', () => {
    const txt2img = doc.components.schemas.Txt2ImgBody;
    expect(txt2img.required).toEqual(expect.arrayContaining(['modelId', 'prompt']));
    expect(txt2img.properties.numSamples).toMatchObject({ minimum: 1, maximum: 128 });
    expect(doc.components.schemas.GenerateDryRunResponse.required).toEqual(['creativeUnitsCost']);
  });
});

/**
 * The served document tells the truth about what the generation and model
 * routes answer: every real answer (status and body) validates against it.
 */
describe('generation routes: real answers match /v1/openapi.json', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let doc: any;
  let check: ReturnType<typeof openApiResponseChecker>;
  let asset: string;
  let dataUrl: string;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    tenant = await harness.tenant();
    doc = (await harness.request('GET', '/v1/openapi.json')).body;
    check = openApiResponseChecker(doc);
    asset = await harness.uploadAsset(tenant);
    dataUrl = await pngDataUrl(64, 64);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await harness.request(method, path, {
      auth: tenant.auth.projectMember,
      ...(body === undefined ? {} : { body }),
    });
    return { path, status: res.status, body: res.body, problems: check(method, path, res.status, res.body) };
  };

  it('answers every generate mode (run and dry run) as documented', async () => {
    const calls = [];
    for (const mode of MODE_REGISTRY) {
      const body = MODE_EXAMPLES[mode.name].valid({ asset, dataUrl });
      calls.push(await call('POST', `/v1/generate/${mode.name}`, body));
      calls.push(await call('POST', `/v1/generate/${mode.name}?dryRun=true`, body));
    }
    expect(calls.filter((c) => c.status !== 200 && c.status !== 269).map((c) => [c.path, c.status])).toEqual(
      [],
    );
    expect(calls.flatMap((c) => c.problems)).toEqual([]);
  });

  it('answers the custom-model route, run and dry run, as documented', async () => {
    const model = await call('POST', '/v1/models', { name: 'Any' });
    const id: string = model.body.model.id;
    const calls = [
      await call('POST', `/v1/generate/custom/${id}`, { prompt: 'x' }),
      await call('POST', `/v1/generate/custom/${id}?dryRun=true`, { prompt: 'x' }),
    ];
    expect(calls.map((c) => c.status)).toEqual([200, 200]);
    expect(calls[1].body.job).toBeUndefined();
    expect(calls.flatMap((c) => c.problems)).toEqual([]);
  });

  it('answers every /v1/models route as documented', async () => {
    const created = await call('POST', '/v1/models', { name: 'Docs', type: 'flux.1-lora' });
    const id: string = created.body.model.id;
    const calls = [
      created,
      await call('GET', '/v1/models'),
      await call('GET', '/v1/models?pageSize=1'),
      await call('GET', '/v1/models?privacy=public'),
      await call('GET', `/v1/models/${id}`),
      await call('GET', '/v1/models/model_0000000000000000000000000'),
      await call('PUT', `/v1/models/${id}`, { name: 'Renamed' }),
      await call('PUT', `/v1/models/${id}/tags`, { add: ['a'] }),
      await call('POST', `/v1/models/${id}/training-images`, { assetId: asset }),
      await call('GET', `/v1/models/${id}/training-images`),
      await call('PUT', `/v1/models/${id}/train?dryRun=true`, {}),
      await call('POST', `/v1/models/${id}/train/action`, { action: 'cancel' }),
      await call('POST', `/v1/models/${id}/download`, {}),
      await call('DELETE', `/v1/models/${id}/training-images/${asset}`),
      await call('DELETE', `/v1/models/${id}`),
    ];
    expect(calls.map((c) => c.status)).toEqual([
      200, 200, 200, 200, 200, 404, 200, 200, 200, 200, 200, 409, 409, 200, 200,
    ]);
    expect(calls.flatMap((c) => c.problems)).toEqual([]);
  });

  it('answers the model pages, presets, scores, pairs, copy and public routes as documented', async () => {
    const created = await call('POST', '/v1/models', { name: 'More', type: 'flux.1-kontext-lora', privacy: 'public' });
    const id: string = created.body.model.id;
    const second = await harness.uploadAsset(tenant);
    await call('POST', `/v1/models/${id}/training-images`, { assetIds: [asset, second] });
    const custom = (await call('POST', '/v1/models', { name: 'Custom' })).body.model.id as string;
    const job = (await call('POST', `/v1/generate/custom/${custom}`, { prompt: 'x' })).body.job.jobId as string;
    const preset = await call('POST', `/v1/models/${custom}/presets`, { inferenceId: job });
    const publicGet = await harness.request('GET', `/v1/models/public/${id}`);
    const calls = [
      preset,
      await call('GET', `/v1/models/${custom}/presets`),
      await call('PUT', `/v1/models/${custom}/presets/${preset.body.preset.id}`, { isDefault: true }),
      await call('DELETE', `/v1/models/${custom}/presets/${preset.body.preset.id}`),
      await call('PUT', `/v1/models/${id}/description`, { description: `{asset:${asset}}` }),
      await call('GET', `/v1/models/${id}/description`),
      await call('PUT', `/v1/models/${id}/examples`, { assetIds: [asset] }),
      await call('GET', `/v1/models/${id}/examples`),
      await call('PUT', `/v1/models/${id}/training-images/pairs`, [{ sourceId: asset, targetId: second, instruction: 'x' }]),
      await call('GET', `/v1/models/${id}/scores/training-dataset`),
      await call('GET', `/v1/models/${id}/scores/prompt?prompt=x`),
      await call('POST', '/v1/models/get-bulk', { modelIds: [id, custom] }),
      await call('GET', '/v1/models/public'),
      { path: 'public/{id}', status: publicGet.status, problems: check('GET', `/v1/models/public/${id}`, publicGet.status, publicGet.body) },
      await call('POST', `/v1/models/${id}/copy`, {}),
      await call('PUT', `/v1/models/${id}/training-images/${second}`, { assetId: await harness.uploadAsset(tenant) }),
      await call('DELETE', `/v1/models/${id}/images?ids=${asset}`),
    ];
    expect(calls.map((c) => [c.path, c.status]).filter(([, status]) => status !== 200)).toEqual([]);
    expect(calls.flatMap((c) => c.problems)).toEqual([]);
  });

  it('documents GET /v1/models pageSize as the pipe applies it: integer, 1 to 500', async () => {
    const pageSize = doc.paths['/v1/models'].get.parameters.find((p: any) => p.name === 'pageSize');
    expect(pageSize.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect((await call('GET', '/v1/models?pageSize=0')).status).toBe(400);
    expect((await call('GET', '/v1/models?pageSize=1.5')).status).toBe(400);
    expect((await call('GET', '/v1/models?pageSize=500')).status).toBe(200);
  });

  it('shows data URLs in the examples of the fields that take data URLs only', () => {
    const schemas = doc.components.schemas;
    for (const [schema, field] of [
      ['ControlnetBody', 'controlImage'],
      ['InpaintBody', 'mask'],
      ['Txt2ImgIpAdapterBody', 'ipAdapterImage'],
      ['GenerativeFillBody', 'mask'],
    ]) {
      expect([schema, schemas[schema]?.properties?.[field]?.example]).toEqual([
        schema,
        expect.stringMatching(/^data:image\//),
      ]);
    }
  });

  it('documents every generate body as closed (additionalProperties: false), as the pipe applies it', () => {
    const bodies = MODE_REGISTRY.map((m) => m.body.name);
    const open = bodies.filter((name) => doc.components.schemas[name]?.additionalProperties !== false);
    expect(open).toEqual([]);
  });
});
