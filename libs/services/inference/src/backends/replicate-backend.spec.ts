import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadBackendsFile } from '@genasset/config';

const dir = mkdtempSync(join(tmpdir(), 'replicate-backends-'));
let n = 0;
function file(backends: Record<string, unknown>): string {
  const path = join(dir, `backends-${n++}.json`);
  writeFileSync(path, JSON.stringify({ backends }));
  return path;
}
function errors(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.message.replace(/^.*?\.json: /, ''));
    throw error;
  }
  throw new Error('expected a ConfigError');
}
const hosted = (over: Record<string, unknown> = {}) => ({
  type: 'replicate',
  credentials: { scheme: 'bearer', tokenEnv: 'R8_TOKEN' },
  routes: ['txt2img'],
  models: { txt2img: 'stability-ai/sdxl' },
  callbackUrl: 'https://genasset.example.com',
  ...over,
});

describe('INFERENCE_BACKENDS_FILE: replicate and cog backends', () => {
  it('reads both with their defaults: Replicate\'s API address, the bearer token from its variable', () => {
    const [r8, cog] = loadBackendsFile(file({ r8: hosted(), box: { type: 'cog', url: 'http://cog:5000', routes: ['upscale'] } }), { R8_TOKEN: 'r8_secret' });
    expect(r8).toMatchObject({
      type: 'replicate',
      url: 'https://api.replicate.com/v1',
      headers: { authorization: 'Bearer r8_secret' },
      concurrency: 4,
      pollInterval: 2000,
      timeouts: { request: 30_000, job: 1_800_000 },
    });
    expect(cog).toMatchObject({ type: 'cog', url: 'http://cog:5000', concurrency: 1, inputs: {}, headers: {} });
  });

  it('names each problem by its path: a route without a model, a bad model reference, no token, no callback URL, a bad input', () => {
    const path = file({
      r8: hosted({ routes: ['txt2img', 'img2img'], models: { txt2img: 'sdxl' }, callbackUrl: undefined }),
      r9: hosted({ credentials: undefined, routes: ['upscale'], models: { upscale: 'nightmareai/real-esrgan:abc' } }),
      box: { type: 'cog', url: 'ftp://cog', routes: ['inpaint'], inputs: { inpaint: { scheduler: ['a'] } } },
    });
    expect(errors(() => loadBackendsFile(path, {}))).toEqual([
      'backends.r8.models.txt2img: expected owner/name, owner/name:<64-hex version> or a version id',
      "backends.r8.callbackUrl: required: this service's public base URL (Replicate calls back under it)",
      'backends.r9.credentials: Invalid input: expected object, received undefined',
      'backends.r9.models.upscale: expected owner/name, owner/name:<64-hex version> or a version id',
      'backends.box.url: Invalid URL (expected http:// or https://)',
      'backends.box.inputs.inpaint.scheduler: Invalid input',
    ]);
  });

  it('refuses a route without a model, and a token variable that is not set', () => {
    expect(errors(() => loadBackendsFile(file({ r8: hosted({ routes: ['txt2img', 'img2img'] }) }), {}))).toEqual([
      'backends.r8.routes.1: img2img needs a model: set models.img2img (owner/name)',
    ]);
    expect(errors(() => loadBackendsFile(file({ r8: hosted() }), {}))).toEqual([
      'backends.r8.credentials.tokenEnv: the environment variable R8_TOKEN is not set',
    ]);
  });

  it('trainings: model-training needs a trainer at a pinned version and a destination, named by path', () => {
    const version = 'a'.repeat(64);
    const [r8] = loadBackendsFile(
      file({ r8: hosted({ routes: ['txt2img', 'model-training'], models: { txt2img: 'stability-ai/sdxl', 'model-training': `ostris/trainer:${version}` }, destination: 'acme/styles' }) }),
      { R8_TOKEN: 't' },
    );
    expect(r8).toMatchObject({ destination: 'acme/styles', trainingImagesInput: 'input_images' });
    expect(
      errors(() =>
        loadBackendsFile(
          file({ r8: hosted({ routes: ['model-training'], models: { 'model-training': 'ostris/trainer' }, destination: 'not a model' }) }),
          { R8_TOKEN: 't' },
        ),
      ),
    ).toEqual([
      'backends.r8.destination: expected owner/name (an existing Replicate model)',
      'backends.r8.models.model-training: a trainer is run at a pinned version: owner/name:<64-hex version>',
    ]);
    expect(
      errors(() => loadBackendsFile(file({ r8: hosted({ routes: ['model-training'], models: { 'model-training': `ostris/trainer:${version}` } }) }), { R8_TOKEN: 't' })),
    ).toEqual(['backends.r8.destination: model-training needs a destination: the owner/name trainings push versions to']);
  });
});
