import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, describeBackend, loadBackendsFile } from '@genasset/config';
import { createEngineRegistry } from '../engines/create-engines';
import { loadInferenceConfig } from '../inference.config';

const dir = mkdtempSync(join(tmpdir(), 'backends-'));
let n = 0;
function file(content: unknown, ext = 'json'): string {
  const path = join(dir, `backends-${n++}.${ext}`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
const gpu = (over: Record<string, unknown> = {}) => ({
  type: 'comfyui',
  url: 'http://127.0.0.1:8188',
  routes: ['txt2img'],
  defaults: { checkpoint: 'sd15.safetensors' },
  ...over,
});
/** Every message of the ConfigError a load throws. */
function errors(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.variable}: ${p.message}`);
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('INFERENCE_BACKENDS_FILE', () => {
  it('reads JSON and YAML, with defaults, credentials resolved from the variables named', () => {
    const yaml = file(
      `backends:
  gpu1:
    type: comfyui
    url: https://comfy.internal/
    credentials: { scheme: bearer, tokenEnv: COMFY_TOKEN }
    routes: [txt2img, img2img]
    defaults: { checkpoint: sdxl.safetensors }
    timeouts: { job: 10m }
`,
      'yaml',
    );
    const [backend] = loadBackendsFile(yaml, { COMFY_TOKEN: 'secret-token' });
    expect(backend).toMatchObject({
      name: 'gpu1',
      type: 'comfyui',
      concurrency: 2,
      routes: ['txt2img', 'img2img'],
      timeouts: { request: 30_000, job: 600_000 },
      headers: { authorization: 'Bearer secret-token' },
    });
    // The log line names how it authenticates, never the secret.
    expect(describeBackend(backend)).toBe(
      'gpu1 (comfyui https://comfy.internal/ auth=bearer concurrency=2): txt2img img2img',
    );
    expect(loadBackendsFile(file({ backends: { a: gpu() } }))[0].headers).toEqual({});
  });

  it('names the path in the file of every problem, at once', () => {
    const path = file({
      backends: {
        gpu1: gpu({ url: 'not a url', concurrency: 0, routes: ['painting'] }),
        gpu2: { ...gpu(), type: 'automatic1111' },
        gpu3: gpu({ credentials: { scheme: 'bearer', token: 'inline-secret' } }),
      },
    });
    expect(errors(() => loadBackendsFile(path))).toEqual([
      `INFERENCE_BACKENDS_FILE: ${path}: backends.gpu1.url: Invalid URL (expected http:// or https://)`,
      `INFERENCE_BACKENDS_FILE: ${path}: backends.gpu1.concurrency: Too small: expected number to be >=1`,
      `INFERENCE_BACKENDS_FILE: ${path}: backends.gpu1.routes.0: not a generation mode (or detect:<modality>, model-training)`,
      `INFERENCE_BACKENDS_FILE: ${path}: backends.gpu2.type: expected "comfyui", "openai", "replicate" or "cog" (the backend types this version runs)`,
      `INFERENCE_BACKENDS_FILE: ${path}: backends.gpu3.credentials.tokenEnv: Invalid input: expected string, received undefined`,
      `INFERENCE_BACKENDS_FILE: ${path}: backends.gpu3.credentials: Unrecognized key: "token"`,
    ]);
  });

  it('an openai backend: only the routes it can serve, each with the model it needs; key from the variable named', () => {
    const bad = file({
      backends: { gpt: { type: 'openai', url: 'https://api.openai.com/v1', routes: ['upscale', 'caption'], models: { image: 'dall-e-3' } } },
    });
    expect(errors(() => loadBackendsFile(bad))).toEqual([
      `INFERENCE_BACKENDS_FILE: ${bad}: backends.gpt.routes.0: an openai backend cannot serve upscale (it serves caption, describe-style, embed, generative-fill, inpaint, prompt, prompt-editing, translate, txt2img)`,
      `INFERENCE_BACKENDS_FILE: ${bad}: backends.gpt.models.chat: caption needs the server's chat model: name it`,
    ]);
    const good = file({
      backends: {
        gpt: {
          type: 'openai',
          url: 'https://api.openai.com/v1',
          credentials: { scheme: 'bearer', tokenEnv: 'OPENAI_API_KEY' },
          routes: ['txt2img', 'caption'],
          models: { image: 'dall-e-3', chat: 'gpt-4o-mini' },
          sizes: ['1024x1024', '1792x1024'],
        },
      },
    });
    const [gpt] = loadBackendsFile(good, { OPENAI_API_KEY: 'sk-secret' });
    expect(gpt).toMatchObject({ type: 'openai', concurrency: 4, timeouts: { request: 120_000, job: 600_000 }, headers: { authorization: 'Bearer sk-secret' } });
    expect(describeBackend(gpt)).toBe('gpt (openai https://api.openai.com/v1 auth=bearer concurrency=4): txt2img caption');
  });

  it('refuses an unset credential variable, a route served twice, a route of another kind of backend, a reserved name, a missing or unreadable file', () => {
    const path = file({
      backends: {
        a: gpu({ credentials: { scheme: 'basic', usernameEnv: 'COMFY_USER', passwordEnv: 'COMFY_PASSWORD' } }),
        b: gpu(),
      },
    });
    expect(errors(() => loadBackendsFile(path, { COMFY_USER: 'me' }))).toEqual([
      `INFERENCE_BACKENDS_FILE: ${path}: backends.a.credentials.passwordEnv: the environment variable COMFY_PASSWORD is not set`,
      `INFERENCE_BACKENDS_FILE: ${path}: backends.b.routes.0: txt2img is already served by a`,
    ]);
    // The mode table: comfyui, replicate and cog make files, so they serve no result-field mode, nor texture's six maps.
    const textual = file({ backends: { c: gpu({ routes: ['txt2img', 'caption', 'texture'] }) } });
    expect(errors(() => loadBackendsFile(textual))).toEqual([
      `INFERENCE_BACKENDS_FILE: ${textual}: backends.c.routes.1: a comfyui backend cannot serve caption: it answers with files, and caption answers with text (use openai or http)`,
      `INFERENCE_BACKENDS_FILE: ${textual}: backends.c.routes.2: a comfyui backend cannot serve texture (only the http engine can: docs/engines.md)`,
    ]);
    const reserved = file({ backends: { preview: gpu() } });
    expect(errors(() => loadBackendsFile(reserved))).toEqual([
      `INFERENCE_BACKENDS_FILE: ${reserved}: backends.preview: names a built-in engine`,
    ]);
    expect(errors(() => loadBackendsFile(join(dir, 'nope.json')))).toEqual([
      `INFERENCE_BACKENDS_FILE: ${join(dir, 'nope.json')}: cannot be read (ENOENT)`,
    ]);
    expect(errors(() => loadBackendsFile(file('{ backends: ', 'json')))[0]).toMatch(/: not valid JSON: /);
  });

  it('checks workflows at start: a file that is missing or in UI format, a placeholder nothing fills, a route without a template', () => {
    const ui = join(dir, 'ui.json');
    writeFileSync(ui, JSON.stringify({ nodes: [], links: [] }));
    const custom = join(dir, 'custom.json');
    writeFileSync(
      custom,
      JSON.stringify({ '1': { class_type: 'MyNode', inputs: { text: '{{prompt}}', style: '{{house_style}}' } } }),
    );
    const path = file({
      backends: {
        gpu1: gpu({
          routes: ['txt2img', 'img2img', 'inpaint', 'vectorize'],
          defaults: {},
          workflows: { img2img: './ui.json', inpaint: './custom.json' },
        }),
      },
    });
    const config = loadInferenceConfig({ INFERENCE_BACKENDS_FILE: path });
    expect(errors(() => createEngineRegistry(config, {}))).toEqual([
      'INFERENCE_BACKENDS_FILE: backends.gpu1.workflows.txt2img: the txt2img workflow txt2img.json (built-in) needs {{checkpoint}}: set backends.gpu1.defaults.checkpoint',
      'INFERENCE_BACKENDS_FILE: backends.gpu1.workflows.img2img: ui.json is in ComfyUI\'s UI format: export it with "Save (API Format)"',
      'INFERENCE_BACKENDS_FILE: backends.gpu1.workflows.inpaint: the inpaint workflow custom.json needs {{house_style}}: set backends.gpu1.defaults.house_style',
      'INFERENCE_BACKENDS_FILE: backends.gpu1.routes: vectorize has no built-in workflow: give one under backends.gpu1.workflows.vectorize',
    ]);
  });

  it('routes the listed modes to the backend; INFERENCE_ENGINES applies over them and may name a backend', () => {
    const path = file({ backends: { gpu1: gpu({ routes: ['txt2img', 'img2img'] }) } });
    const registry = createEngineRegistry(
      loadInferenceConfig({ INFERENCE_BACKENDS_FILE: path, INFERENCE_ENGINES: 'img2img=none,upscale=image' }),
      {},
    );
    expect(registry.table(['txt2img', 'img2img', 'upscale', 'pixelate'])).toEqual({
      txt2img: 'gpu1',
      img2img: 'none',
      upscale: 'image',
      pixelate: 'image',
    });
    expect(registry.backends().map((b) => b.name)).toEqual(['gpu1']);
    expect(() =>
      createEngineRegistry(loadInferenceConfig({ INFERENCE_BACKENDS_FILE: path, INFERENCE_ENGINES: 'inpaint=gpu1' }), {}),
    ).toThrow('INFERENCE_ENGINES: the gpu1 engine cannot run inpaint');
  });
});
