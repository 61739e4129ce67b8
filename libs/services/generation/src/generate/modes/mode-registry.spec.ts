import { DECORATORS } from '@nestjs/swagger';
import { GENERATION_MODES as PRICED_MODES, JOB_TYPES } from '@genasset/contracts';
import { operationId } from '../generate.controller';
import { checkRules } from '../generate.service';
import { modelRunBy } from './mode-definition';
import { MODE_REGISTRY } from './mode-registry';

// The spec's Generation table (custom has its own route), plus vectorize from the upstream reference.
const SPEC_PATHS = [
  'caption',
  'controlnet',
  'controlnet-img2img',
  'controlnet-inpaint',
  'controlnet-inpaint-ip-adapter',
  'controlnet-ip-adapter',
  'controlnet-texture',
  'describe-style',
  'detect',
  'embed',
  'generative-fill',
  'img2img',
  'img2img-ip-adapter',
  'img2img-texture',
  'inpaint',
  'inpaint-ip-adapter',
  'patch',
  'pixelate',
  'prompt',
  'prompt-editing',
  'reframe',
  'remove-background',
  'restyle',
  'segment',
  'skybox-base-360',
  'skybox-upscale-360',
  'texture',
  'translate',
  'txt2img',
  'txt2img-ip-adapter',
  'txt2img-texture',
  'upscale',
];

describe('mode registry', () => {
  const names = MODE_REGISTRY.map((m) => m.name);

  it('has every generate path of the spec, once, and vectorize', () => {
    expect([...names].sort()).toEqual([...SPEC_PATHS, 'vectorize'].sort());
  });

  it('prices every mode (the creative-units table knows them all)', () => {
    expect([...names, 'custom'].sort()).toEqual([...PRICED_MODES].sort());
  });

  it('marks deprecated exactly the spec’s deprecated operations', () => {
    expect(MODE_REGISTRY.filter((m) => m.deprecated).map((m) => m.name)).toEqual([
      'prompt-editing',
      'remove-background',
      'upscale',
    ]);
  });

  it('refuses originalAssets exactly where the spec says (no originalAssets)', () => {
    expect(MODE_REGISTRY.filter((m) => !m.originalAssets).map((m) => m.name)).toEqual([
      'caption',
      'describe-style',
      'prompt',
      'translate',
    ]);
  });

  it('answers the spec’s response kinds', () => {
    const kind = (k: string) => MODE_REGISTRY.filter((m) => m.response === k).map((m) => m.name);
    expect(kind('job-asset')).toEqual(['detect', 'patch', 'pixelate', 'remove-background', 'vectorize']);
    expect(kind('job')).toEqual([
      'generative-fill',
      'prompt-editing',
      'reframe',
      'restyle',
      'skybox-base-360',
      'skybox-upscale-360',
      'texture',
      'upscale',
    ]);
  });

  it('uses known job types and the upstream operation ids', () => {
    for (const mode of MODE_REGISTRY) expect(JOB_TYPES).toContain(mode.jobType);
    expect(operationId(MODE_REGISTRY.find((m) => m.name === 'txt2img-ip-adapter')!)).toBe(
      'PostTxt2imgIpAdapterInferences',
    );
    expect(operationId(MODE_REGISTRY.find((m) => m.name === 'skybox-base-360')!)).toBe(
      'PostSkyboxBase360Inferences',
    );
    expect(new Set(MODE_REGISTRY.map(operationId)).size).toBe(MODE_REGISTRY.length);
  });

  it('records the model a job runs: the body’s, else the default its body documents', () => {
    const byName = (name: string) => MODE_REGISTRY.find((m) => m.name === name)!;
    expect(modelRunBy(byName('txt2img'), { modelId: 'flux.1-dev' })).toBe('flux.1-dev');
    expect(modelRunBy(byName('prompt-editing'), { modelId: 'gpt-image-1' })).toBe('gpt-image-1');
    expect(modelRunBy(byName('prompt-editing'), {})).toBe('gemini-2.5-flash');
    // caption, describe-style and prompt take a modelId to condition on, not to run.
    expect(modelRunBy(byName('caption'), { modelId: 'model_1' })).toBeUndefined();
    expect(modelRunBy(byName('upscale'), {})).toBeUndefined();
    for (const mode of MODE_REGISTRY) {
      const modelId = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, mode.body.prototype, 'modelId') as
        { default?: string } | undefined;
      expect({ mode: mode.name, ran: modelRunBy(mode, {}) }).toEqual({
        mode: mode.name,
        ran: modelId?.default,
      });
    }
  });

  describe('cross-field rules', () => {
    const byName = (name: string) => MODE_REGISTRY.find((m) => m.name === name)!;
    const fieldsOf = (name: string, body: Record<string, unknown>) => {
      try {
        checkRules(byName(name), body);
        return [];
      } catch (error) {
        return Object.keys((error as { infos: { fields: Record<string, string[]> } }).infos.fields);
      }
    };
    const t2i = { modelId: 'flux.1-dev', prompt: 'x' };

    it('does not count an empty list as the one required field of a group', () => {
      expect(fieldsOf('txt2img-ip-adapter', { ...t2i, ipAdapterImageIds: [] })).toEqual(['ipAdapterImages']);
      expect(fieldsOf('txt2img-ip-adapter', { ...t2i, ipAdapterImages: [], ipAdapterImageId: null })).toEqual(
        ['ipAdapterImages'],
      );
      expect(fieldsOf('describe-style', { images: [], assetIds: [] })).toEqual(['images']);
      expect(fieldsOf('txt2img-ip-adapter', { ...t2i, ipAdapterImageIds: ['asset_1'] })).toEqual([]);
      expect(fieldsOf('describe-style', { images: [], modelId: 'model_1' })).toEqual([]);
    });

    it('requires an image in image-editing prompt mode, null being none', () => {
      expect(fieldsOf('prompt', { mode: 'image-editing' })).toEqual(['image']);
      expect(fieldsOf('prompt', { mode: 'image-editing', image: null })).toEqual(['image']);
      expect(fieldsOf('prompt', { mode: 'image-editing', image: 'asset_1' })).toEqual([]);
      expect(fieldsOf('prompt', { mode: 'structured', image: null })).toEqual([]);
    });
  });
});
