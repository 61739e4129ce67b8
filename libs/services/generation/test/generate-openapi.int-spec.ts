import { MODE_REGISTRY } from '../src/generate/modes/mode-registry';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

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
