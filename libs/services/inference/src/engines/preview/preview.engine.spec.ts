import { PreviewEngine } from './preview.engine';
import { hashedEmbedding } from './preview-text';
import { drawPng, fakeContext, job, pixels } from '../testing/fake-context';

describe('preview engine', () => {
  const engine = new PreviewEngine();
  const txt2img = { modelId: 'model_x', prompt: 'a lighthouse at dawn', width: 256, height: 192, seed: 42 };

  it('is deterministic: the same request and seed give the same bytes', async () => {
    const a = fakeContext();
    const b = fakeContext();
    await engine.run(job('txt2img', txt2img, { modelId: 'model_x' }), a);
    await engine.run(
      job(
        'txt2img',
        { ...txt2img, generationMode: 'txt2img', outputAssetId: 'asset_other' },
        { jobId: 'job_other', modelId: 'model_x' },
      ),
      b,
    );
    expect(a.files[0].bytes.equals(b.files[0].bytes)).toBe(true);
    expect(await pixels(a.files[0].bytes)).toMatchObject({ width: 256, height: 192 });
  });

  it('changes with the seed and the prompt', async () => {
    const base = fakeContext();
    const seed = fakeContext();
    const prompt = fakeContext();
    await engine.run(job('txt2img', txt2img), base);
    await engine.run(job('txt2img', { ...txt2img, seed: 43 }), seed);
    await engine.run(job('txt2img', { ...txt2img, prompt: 'a lighthouse at dusk' }), prompt);
    expect(base.files[0].bytes.equals(seed.files[0].bytes)).toBe(false);
    expect(base.files[0].bytes.equals(prompt.files[0].bytes)).toBe(false);
  });

  it('makes numSamples outputs of the mode’s asset type, and says it is a preview', async () => {
    const ctx = fakeContext();
    const result = await engine.run(job('txt2img', { ...txt2img, numSamples: 3 }), ctx);
    expect(result.outputs.map((o) => o.assetType)).toEqual([
      'inference-txt2img',
      'inference-txt2img',
      'inference-txt2img',
    ]);
    expect(result.extra).toEqual({ engine: 'preview', seed: 42 });
    expect(new Set(ctx.files.map((f) => f.bytes.toString('base64'))).size).toBe(3);
  });

  it('derives and records a seed when none is given, the same for the same request', async () => {
    const a = await engine.run(job('txt2img', { prompt: 'x' }), fakeContext());
    const b = await engine.run(job('txt2img', { prompt: 'x' }), fakeContext());
    expect(a.extra?.seed).toEqual(b.extra?.seed);
    expect(typeof a.extra?.seed).toBe('number');
  });

  it('builds on the input picture for img2img-like modes, as a child of it', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(64, 48, () => [10, 200, 10]) });
    const result = await engine.run(job('img2img', { image: 'asset_in', prompt: 'y' }), ctx);
    expect(result.outputs[0]).toMatchObject({
      assetType: 'inference-img2img',
      parentAssetId: 'asset_in',
      metadata: { width: 64, height: 48 },
    });
  });

  it('sizes a missing side by the body’s documented default (512), not a square or 1024', async () => {
    const wide = await engine.run(job('txt2img', { prompt: 'x', width: 768 }), fakeContext());
    const tall = await engine.run(job('txt2img', { prompt: 'x', height: 768 }), fakeContext());
    const none = await engine.run(job('txt2img', { prompt: 'x' }), fakeContext());
    expect(wide.outputs[0].metadata).toMatchObject({ width: 768, height: 512 });
    expect(tall.outputs[0].metadata).toMatchObject({ width: 512, height: 768 });
    expect(none.outputs[0].metadata).toMatchObject({ width: 512, height: 512 });
  });

  it('takes the deprecated imageId and controlImageId as the input picture and parent', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(64, 48, () => [10, 200, 10]) });
    const byId = await engine.run(job('img2img', { imageId: 'asset_in', prompt: 'y' }), ctx);
    expect(byId.outputs[0]).toMatchObject({ parentAssetId: 'asset_in', metadata: { width: 64, height: 48 } });
    const control = await engine.run(
      job('controlnet', { controlImageId: 'asset_in', modality: 'canny', prompt: 'y' }),
      ctx,
    );
    expect(control.outputs[0]).toMatchObject({
      parentAssetId: 'asset_in',
      metadata: { width: 64, height: 48 },
    });
  });

  it('writes prompt-editing outputs in the requested format (png, jpeg, webp)', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(64, 48, () => [10, 200, 10]) });
    const edit = (format?: string) =>
      engine.run(
        job('prompt-editing', { image: 'asset_in', prompt: 'night', ...(format ? { format } : {}) }),
        ctx,
      );
    expect((await edit()).outputs[0].mimeType).toBe('image/png');
    expect((await edit('jpeg')).outputs[0].mimeType).toBe('image/jpeg');
    expect((await edit('webp')).outputs[0].mimeType).toBe('image/webp');
    expect(ctx.files[1].bytes.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(true);
    expect(ctx.files[2].bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');
    expect(await pixels(ctx.files[1].bytes)).toMatchObject({ width: 64, height: 48 });
  });

  it('records the detect modality it previewed, as the image engine does', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(32, 16, () => [10, 200, 10]) });
    const result = await engine.run(
      job('detect', { image: 'asset_in', modality: 'depth' }, { jobType: 'detection' }),
      ctx,
    );
    expect(result.outputs[0]).toMatchObject({
      assetType: 'detection',
      parentAssetId: 'asset_in',
      metadata: { modality: 'depth', width: 32, height: 16 },
    });
  });

  it('answers text modes with their result fields', async () => {
    const ctx = fakeContext({ asset_a: await drawPng(40, 20, () => [20, 40, 200]) });
    expect((await engine.run(job('caption', { images: ['asset_a'] }), ctx)).extra).toMatchObject({
      captions: ['[preview] a landscape image, mostly blue, 40×20 pixels'],
      engine: 'preview',
    });
    const embed = await engine.run(job('embed', { text: 'red fox' }), fakeContext());
    expect(embed.extra?.embedding).toHaveLength(768);
    const prompts = await engine.run(
      job('prompt', { mode: 'structured', prompt: 'a cat', numResults: 3 }),
      fakeContext(),
    );
    expect(prompts.extra?.prompts).toHaveLength(3);
    expect(await engine.run(job('translate', { prompt: 'un chat' }), fakeContext())).toMatchObject({
      outputs: [],
      extra: { translation: 'un chat', detectedLanguage: 'und' },
    });
  });

  it('embeds texts sharing words closer than unrelated ones', () => {
    const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);
    const fox = hashedEmbedding('a red fox in the snow');
    expect(dot(fox, hashedEmbedding('red fox running'))).toBeGreaterThan(
      dot(fox, hashedEmbedding('quarterly tax report')),
    );
    expect(dot(fox, fox)).toBeCloseTo(1, 5);
  });

  it('renders vectorize previews as SVG', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(30, 20, () => [1, 2, 3]) });
    const result = await engine.run(job('vectorize', { image: 'asset_in' }, { jobType: 'vectorize' }), ctx);
    expect(result.outputs[0]).toMatchObject({ mimeType: 'image/svg+xml', assetType: 'vectorization' });
    expect(ctx.files[0].bytes.toString()).toContain('<svg');
  });
});
