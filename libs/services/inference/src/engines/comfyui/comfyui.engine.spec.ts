import sharp from 'sharp';
import { FakeComfyui } from '@genasset/testing';
import type { ComfyuiBackendConfig } from '@genasset/config';
import { EngineError } from '../engine';
import { fakeContext, job } from '../testing/fake-context';
import { TransientError } from '../../work/transient-error';
import { ComfyuiEngine } from './comfyui.engine';
import { bindWorkflow, placeholderValues, readTemplate } from './workflow';

const config = (url: string, over: Partial<ComfyuiBackendConfig> = {}): ComfyuiBackendConfig => ({
  name: 'gpu1',
  type: 'comfyui',
  url,
  concurrency: 2,
  timeouts: { request: 2_000, job: 20_000 },
  pollInterval: 50,
  maxOutputBytes: 1024 * 1024,
  routes: ['txt2img', 'img2img', 'inpaint', 'controlnet', 'txt2img-ip-adapter', 'upscale'],
  workflows: {},
  defaults: { checkpoint: 'sd15.safetensors', controlnet_model: 'canny.pth', upscale_model: 'x4.pth' },
  models: {},
  headers: { authorization: 'Bearer t0ken' },
  workflowFiles: {},
  modelWorkflowFiles: {},
  ...over,
});

describe('workflow binding', () => {
  it('binds request fields, defaults and fallbacks to the txt2img template, numbers staying numbers', () => {
    const workflow = readTemplate('txt2img')!;
    const values = placeholderValues(
      workflow,
      { prompt: 'a fox', negativePrompt: 'blur', numInferenceSteps: 12, guidance: 4.5, width: 768, numSamples: 3 },
      { defaults: { checkpoint: 'sdxl.safetensors', steps: 40, height: 1024 }, seed: 42, filenamePrefix: 'genasset/job_1', images: {} },
    );
    const graph = bindWorkflow(workflow, values);
    expect(graph['3'].inputs).toMatchObject({ seed: 42, steps: 12, cfg: 4.5, denoise: 1, model: ['4', 0] });
    expect(graph['4'].inputs).toEqual({ ckpt_name: 'sdxl.safetensors' });
    expect(graph['5'].inputs).toEqual({ width: 768, height: 1024, batch_size: 3 });
    expect(graph['6'].inputs.text).toBe('a fox');
    expect(graph['7'].inputs.text).toBe('blur');
    expect(graph['9'].inputs.filename_prefix).toBe('genasset/job_1');
    // Fallbacks when neither the request nor the operator says.
    const bare = bindWorkflow(workflow, placeholderValues(workflow, {}, { defaults: { checkpoint: 'c' }, seed: 1, filenamePrefix: 'p', images: {} }));
    expect(bare['3'].inputs).toMatchObject({ steps: 30, cfg: 7 });
    expect(bare['5'].inputs).toEqual({ width: 512, height: 512, batch_size: 1 });
    expect(bare['7'].inputs.text).toBe('');
  });

  it('binds img2img strength to denoise, controlnet start/end, and a placeholder inside a longer string as text', () => {
    const img2img = readTemplate('img2img')!;
    const bound = bindWorkflow(img2img, placeholderValues(img2img, { strength: 0.35 }, { defaults: { checkpoint: 'c' }, seed: 1, filenamePrefix: 'p', images: { image: 'genasset/x.png' } }));
    expect(bound['3'].inputs.denoise).toBe(0.35);
    expect(bound['10'].inputs.image).toBe('genasset/x.png');
    const controlnet = readTemplate('controlnet')!;
    const c = bindWorkflow(controlnet, placeholderValues(controlnet, { controlStart: 0.2 }, { defaults: { checkpoint: 'c', controlnet_model: 'cn.pth' }, seed: 1, filenamePrefix: 'p', images: { control_image: 'k.png' } }));
    expect(c['13'].inputs).toMatchObject({ strength: 1, start_percent: 0.2, end_percent: 1, image: ['11', 0] });
    expect(c['12'].inputs.control_net_name).toBe('cn.pth');
    const text = bindWorkflow({ name: 't', placeholders: new Set(['prompt', 'seed']), graph: { '1': { class_type: 'X', inputs: { text: 'style: {{prompt}}, seed {{seed}}' } } } }, { prompt: 'fox', seed: 7 });
    expect(text['1'].inputs.text).toBe('style: fox, seed 7');
  });
});

describe('comfyui engine (against the fake ComfyUI)', () => {
  let fake: FakeComfyui;
  beforeEach(async () => {
    fake = await FakeComfyui.start({ stepDelayMs: 5 });
  });
  afterEach(() => fake.close());

  it('runs txt2img: submits under the id it chose, follows progress, stores each output with its metadata', async () => {
    const engine = new ComfyuiEngine(config(fake.url));
    const ctx = fakeContext();
    const result = await engine.run(job('txt2img', { prompt: 'a fox', seed: 1234, numSamples: 2, numInferenceSteps: 8, width: 64, height: 32 }), ctx);
    expect(fake.submits).toHaveLength(1);
    const [submit] = fake.submits;
    expect(submit.clientId).toBe(submit.promptId);
    expect(submit.extraData).toMatchObject({ genasset: { submission: submit.promptId, seed: 1234, checkpoint: 'sd15.safetensors' } });
    expect(result.outputs).toHaveLength(2);
    const [first] = ctx.files;
    expect(first).toMatchObject({
      mimeType: 'image/png',
      assetType: 'inference-txt2img',
      metadata: { backend: 'gpu1', backendModel: 'sd15.safetensors', seed: 1234, workflow: 'txt2img.json (built-in)', promptId: submit.promptId },
    });
    const images = fake.history(submit.promptId)!.outputs['9'].images;
    expect(first.bytes.equals(fake.files.get(`output/${images[0].subfolder}/${images[0].filename}`)!)).toBe(true);
    expect(await sharp(first.bytes).metadata()).toMatchObject({ width: 64, height: 32 });
    expect(result.extra).toMatchObject({ engine: 'comfyui', backend: 'gpu1', seed: 1234 });
    expect(ctx.progressed.length).toBeGreaterThan(2);
    expect(ctx.progressed).toEqual([...ctx.progressed].sort((a, b) => a - b));
  });

  it('uploads the image and merges the mask into its alpha through /upload/mask for inpaint', async () => {
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
    const mask = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const engine = new ComfyuiEngine(config(fake.url));
    const ctx = fakeContext({ asset_img: image, asset_mask: mask });
    const result = await engine.run(job('inpaint', { prompt: 'x', image: 'asset_img', mask: 'asset_mask' }), ctx);
    expect(fake.uploads.map((u) => u.kind)).toEqual(['image', 'mask']);
    const merged = fake.files.get(`input/genasset/${fake.uploads[1].name}`)!;
    // White (repaint) became transparent: LoadImage's MASK is 1 there.
    const { data } = await sharp(merged).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2], data[3]]).toEqual([0x33, 0x66, 0x99, 0]);
    expect(fake.submits[0].graph['10'].inputs.image).toBe(`genasset/${fake.uploads[1].name}`);
    expect(result.outputs[0].parentAssetId).toBe('asset_img');
  });

  it('carries on through /history when the websocket drops mid-job', async () => {
    fake.fail('drop-socket');
    const ctx = fakeContext();
    const result = await new ComfyuiEngine(config(fake.url)).run(job('txt2img', { prompt: 'x', numInferenceSteps: 20 }), ctx);
    expect(result.outputs).toHaveLength(1);
  });

  it('fails with reasons a client can read: refused graph, 5xx, malformed body, lost job, unreachable', async () => {
    const engine = new ComfyuiEngine(config(fake.url));
    fake.fail('http-4xx');
    await expect(engine.run(job('txt2img', { prompt: 'x' }), fakeContext())).rejects.toThrow(
      new EngineError(
        "the comfyui backend gpu1 refused POST /prompt (HTTP 400: Prompt outputs failed validation; node 4 (CheckpointLoaderSimple): Value not in list (ckpt_name: 'missing.safetensors' not in []))",
      ),
    );
    fake.fail('http-5xx');
    const fiveHundred = engine.run(job('txt2img', { prompt: 'x' }), fakeContext());
    await expect(fiveHundred).rejects.toBeInstanceOf(TransientError);
    await expect(fiveHundred).rejects.toMatchObject({
      reason: 'the comfyui backend gpu1 failed (POST /prompt: HTTP 500: 500 Internal Server Error Server got itself in trouble)',
    });
    fake.fail('malformed');
    await expect(engine.run(job('txt2img', { prompt: 'x' }), fakeContext())).rejects.toThrow(
      'the comfyui backend gpu1 answered POST /prompt with an invalid body: expected JSON',
    );
    fake.fail('lose-job');
    await expect(engine.run(job('txt2img', { prompt: 'x', numInferenceSteps: 20 }), fakeContext())).rejects.toThrow(
      /^the comfyui backend gpu1 lost the job: prompt [0-9a-f-]+ is neither in its queue nor in its history/,
    );
    fake.fail('down');
    await expect(engine.run(job('txt2img', { prompt: 'x' }), fakeContext())).rejects.toMatchObject({
      reason: 'the comfyui backend gpu1 could not be reached',
    });
    await expect(engine.problems()).rejects.toThrow('the comfyui backend gpu1 could not be reached');
  });

  it('interrupts and fails work past the job timeout', async () => {
    fake.fail('never-ends');
    const engine = new ComfyuiEngine(config(fake.url, { timeouts: { request: 2_000, job: 300 } }));
    await expect(engine.run(job('txt2img', { prompt: 'x', numInferenceSteps: 2 }), fakeContext())).rejects.toThrow(
      'the comfyui backend gpu1 did not finish txt2img within 300 ms; the work was interrupted',
    );
    expect(fake.interrupts).toEqual([fake.submits[0].promptId]);
  });

  it('names node types a backend lacks (readiness), per workflow', async () => {
    await fake.close();
    fake = await FakeComfyui.start({ nodeTypes: ['CheckpointLoaderSimple', 'CLIPTextEncode', 'EmptyLatentImage', 'KSampler', 'VAEDecode', 'SaveImage', 'LoadImage', 'VAEEncode', 'RepeatLatentBatch', 'VAEEncodeForInpaint', 'Canny', 'ControlNetLoader', 'ControlNetApplyAdvanced'] });
    const engine = new ComfyuiEngine(config(fake.url));
    expect(await engine.problems()).toEqual([
      'missing node types: IPAdapter (ip-adapter.json (built-in)); IPAdapterUnifiedLoader (ip-adapter.json (built-in)); ImageUpscaleWithModel (upscale.json (built-in)); UpscaleModelLoader (upscale.json (built-in))',
    ]);
  });
});

describe('comfyui engine: finding a submitted prompt again after a restart', () => {
  it('a prompt that finishes between its two reads (queue, history) is found, not taken for lost', async () => {
    // The server as the engine reads it: the prompt running at the first read, finished from the second.
    let reads = 0;
    const item = [0, 'prompt-1', {}, {}, []];
    const client = {
      queue: async () => (reads++ === 0 ? { running: [item], pending: [] } : { running: [], pending: [] }),
      history: async () => (reads++ === 0 ? undefined : { prompt: item, outputs: {} }),
      allHistory: async () => ({}),
    };
    const engine = new ComfyuiEngine(config('http://127.0.0.1:9'));
    Object.assign(engine, { client });
    const where = await engine.locate({ submission: 'submission-1', handle: 'prompt-1' });
    expect(where).toEqual({ state: 'running', handle: 'prompt-1' });
  });
});
