import { EngineError } from '../engine';
import { PreviewEngine } from '../preview/preview.engine';
import { drawPng, fakeContext, job } from '../testing/fake-context';
import { analyseImage } from './image-analysis';
import { parsePrompt } from './prompts';
import { TextEngine } from './text.engine';
import { cosine, TEXT_EMBEDDING_DIMENSIONS, textEmbedding } from './text-embedding';

/** A deterministic pseudo-random texture around a base colour (noise ±amp). */
const noisy = (w: number, h: number, [r, g, b]: number[], amp = 20) =>
  drawPng(w, h, (x, y) => {
    const n = (((x * 73856093) ^ (y * 19349663)) >>> 0) % (2 * amp + 1);
    return [r + n - amp, g + n - amp, b + n - amp].map((v) => Math.max(0, Math.min(255, v)));
  });

describe('text engine', () => {
  const engine = new TextEngine();

  describe('text embedding', () => {
    it('is a unit vector of 1024 dimensions, the same for the same text', () => {
      const v = textEmbedding('a red fox in the snow');
      expect(v).toHaveLength(TEXT_EMBEDDING_DIMENSIONS);
      expect(Math.hypot(...v)).toBeCloseTo(1, 4);
      expect(textEmbedding('a red fox in the snow')).toEqual(v);
    });

    it('scores near-identical prompts high and unrelated ones low', () => {
      const base = textEmbedding('a red fox sleeping in a snowy forest, watercolour');
      const typo = textEmbedding('a red fox sleeping in a snowy forrest, watercolor');
      const reordered = textEmbedding('watercolour, a red fox sleeping in a snowy forest');
      const unrelated = textEmbedding('isometric cyberpunk city at night with neon signs');
      expect(cosine(base, reordered)).toBeGreaterThan(0.99);
      expect(cosine(base, typo)).toBeGreaterThan(0.8);
      expect(cosine(base, unrelated)).toBeLessThan(0.25);
      expect(cosine(base, typo)).toBeGreaterThan(cosine(base, unrelated) + 0.5);
    });

    it('answers embed jobs with the vector, engine "text"', async () => {
      const result = await engine.run(
        job('embed', { text: 'hello world' }, { jobType: 'embed' }),
        fakeContext(),
      );
      expect(result).toEqual({
        outputs: [],
        extra: { embedding: textEmbedding('hello world'), engine: 'text' },
      });
    });
  });

  describe('image analysis and captions', () => {
    it('names the dominant colours, the shape, the tone and the detail', async () => {
      const redLandscape = await noisy(160, 90, [200, 30, 30], 6);
      const ctx = fakeContext({ asset_red: redLandscape });
      const result = await engine.run(job('caption', { images: ['asset_red'] }, { jobType: 'caption' }), ctx);
      const [text] = result.extra!.captions as string[];
      expect(text).toMatch(/landscape image in red/);
      expect(text).toMatch(/smooth|soft/);
      expect(result.extra!.engine).toBe('text');
    });

    it('tells dark from bright, flat from busy, portrait from landscape', async () => {
      const dark = await analyseImage(await noisy(60, 120, [20, 20, 30], 4), 'image');
      const bright = await analyseImage(await noisy(120, 60, [235, 235, 225], 4), 'image');
      const checker = await analyseImage(
        await drawPng(128, 128, (x, y) => (((x >> 2) + (y >> 2)) % 2 ? [0, 0, 0] : [255, 255, 255])),
        'image',
      );
      expect(dark).toMatchObject({ orientation: 'portrait' });
      expect(bright).toMatchObject({ orientation: 'landscape' });
      expect(dark.lightness).toBeLessThan(15);
      expect(bright.lightness).toBeGreaterThan(85);
      expect(checker.edgeDensity).toBeGreaterThan(0.3);
      expect(bright.edgeDensity).toBeLessThan(0.02);
      expect(checker.contrast).toBeGreaterThan(40);
      expect(checker.colourfulness).toBeLessThan(3);
      expect(checker.palette.map((c) => c.name).sort()).toEqual(['black', 'white']);
    });

    it('captions every image in order (images then assetIds), without the unwanted sequences', async () => {
      const ctx = fakeContext({
        asset_a: await noisy(64, 64, [40, 80, 200], 5),
        asset_b: await noisy(64, 64, [40, 160, 60], 5),
      });
      const result = await engine.run(
        job(
          'caption',
          { images: ['asset_a'], assetIds: ['asset_b'], unwantedSequences: ['square'] },
          { jobType: 'caption' },
        ),
        ctx,
      );
      const captions = result.extra!.captions as string[];
      expect(captions).toHaveLength(2);
      expect(captions[0]).toMatch(/ in blue/);
      expect(captions[1]).toMatch(/ in green/);
      expect(captions.join(' ')).not.toMatch(/square/);
    });
  });

  describe('describe-style', () => {
    it('describes the pooled palette, tone and contrast with the numbers', async () => {
      const half = await drawPng(100, 100, (x) => (x < 50 ? [240, 140, 30] : [20, 30, 90]));
      const ctx = fakeContext({ asset_s: half });
      const result = await engine.run(
        job('describe-style', { images: ['asset_s'] }, { jobType: 'describe-style' }),
        ctx,
      );
      const { description, synthesis } = result.extra as { description: string; synthesis: string };
      expect(description).toMatch(/Palette: .*orange #[0-9a-f]{6} \(50 %\)/);
      expect(description).toMatch(/navy #[0-9a-f]{6} \(50 %\)/);
      expect(description).toMatch(/Contrast: high-contrast/);
      expect(synthesis).toMatch(/look in (orange and navy|navy and orange)/);
    });

    it('goes to the fallback without images (a model’s style needs a model)', async () => {
      const withPreview = new TextEngine(new PreviewEngine());
      const result = await withPreview.run(
        job('describe-style', { modelId: 'model_x' }, { jobType: 'describe-style' }),
        fakeContext(),
      );
      expect(result.extra!.engine).toBe('preview');
      await expect(engine.run(job('describe-style', { modelId: 'model_x' }), fakeContext())).rejects.toThrow(
        EngineError,
      );
    });
  });

  describe('prompts', () => {
    const run = (input: Record<string, unknown>, e = engine) =>
      e.run(job('prompt', input, { jobType: 'generate-prompt' }), fakeContext());

    it('sorts the prompt’s phrases into aspects', () => {
      expect(
        parsePrompt('a fox in the snow, watercolour, golden hour lighting, close-up, highly detailed, cosy'),
      ).toEqual({
        subject: 'a fox in the snow',
        details: [],
        aspects: {
          style: ['watercolour'],
          lighting: ['golden hour lighting'],
          composition: ['close-up'],
          quality: ['highly detailed'],
          mood: ['cosy'],
        },
      });
    });

    it('structured: the user’s words by aspect, then variants filling the open aspects', async () => {
      const result = await run({
        mode: 'structured',
        prompt: 'a fox in the snow, watercolour, red scarf',
        numResults: 3,
        seed: 5,
      });
      const prompts = result.extra!.prompts as string[];
      expect(prompts[0]).toBe('Subject: a fox in the snow. Style: watercolour. Colour: red scarf.');
      expect(prompts[1]).toMatch(
        /^Subject: a fox in the snow\. Style: watercolour\. Lighting: .+\. Composition: .+\. Colour: red scarf\. Mood: .+\. Quality: .+\.$/,
      );
      expect(new Set(prompts).size).toBe(3);
      expect(
        (
          await run({
            mode: 'structured',
            prompt: 'a fox in the snow, watercolour, red scarf',
            numResults: 3,
            seed: 5,
          })
        ).extra!.prompts,
      ).toEqual(prompts);
    });

    it('completion: the prompt as written plus a phrase for each aspect it leaves open', async () => {
      const result = await run({
        mode: 'completion',
        prompt: 'a lighthouse on a cliff, oil painting',
        numResults: 2,
      });
      const prompts = result.extra!.prompts as string[];
      for (const p of prompts) {
        expect(p.startsWith('a lighthouse on a cliff, oil painting, ')).toBe(true);
        expect(p.split(', ')).toHaveLength(2 + 5);
      }
      expect(prompts[0]).not.toBe(prompts[1]);
      expect(result.extra).toMatchObject({ engine: 'text', seed: expect.any(Number) });
    });

    it('contextual: the prompt in the look measured on the reference images', async () => {
      const ctx = fakeContext({ asset_ref: await noisy(64, 64, [40, 160, 60], 5) });
      const result = await engine.run(
        job(
          'prompt',
          { mode: 'contextual', prompt: 'a castle', assetIds: ['asset_ref'] },
          { jobType: 'generate-prompt' },
        ),
        ctx,
      );
      expect((result.extra!.prompts as string[])[0]).toMatch(/^a castle, .* look in green$/);
    });

    it('inventive and image-editing need a model: the fallback answers, or the job fails saying what to configure', async () => {
      const withPreview = new TextEngine(new PreviewEngine());
      expect((await run({ mode: 'inventive', numResults: 2 }, withPreview)).extra).toMatchObject({
        engine: 'preview',
      });
      await expect(run({ mode: 'image-editing', prompt: 'x' })).rejects.toThrow(
        /prompt mode image-editing with this input needs a language model.*prompt=http/,
      );
    });
  });

  it('runs caption, describe-style, embed and prompt; not translate', () => {
    expect(['caption', 'describe-style', 'embed', 'prompt'].every((r) => engine.supports(r))).toBe(true);
    expect(engine.supports('translate')).toBe(false);
    expect(engine.supports('pixelate')).toBe(false);
  });
});
