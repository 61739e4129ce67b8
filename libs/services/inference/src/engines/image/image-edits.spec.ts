import { ImageEngine } from './image.engine';
import { drawPng, fakeContext, job, pixels } from '../testing/fake-context';

const engine = new ImageEngine();
const rgbAt = (img: { data: Buffer; width: number }, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3),
];
const gradient = (x: number, y: number) => [60 + x * 2, 80 + y, 150];

describe('image engine: generative-fill', () => {
  it('erases the masked object: the hole takes the colours around it', async () => {
    // A black square on a smooth gradient; the mask covers the square.
    const square = (x: number, y: number) => x >= 24 && x < 40 && y >= 24 && y < 40;
    const ctx = fakeContext({
      asset_in: await drawPng(64, 64, (x, y) => (square(x, y) ? [0, 0, 0] : gradient(x, y))),
      'generation-inputs/proj_1/x/mask.png': await drawPng(64, 64, (x, y) =>
        square(x, y) ? [255, 255, 255] : [0, 0, 0],
      ),
    });
    const result = await engine.run(
      job(
        'generative-fill',
        { image: 'asset_in', mask: 'generation-inputs/proj_1/x/mask.png' },
        { jobType: 'repaint' },
      ),
      ctx,
    );
    expect(result.outputs[0]).toMatchObject({ assetType: 'generative-fill', parentAssetId: 'asset_in' });
    const out = await pixels(ctx.files[0].bytes);
    for (const [x, y] of [
      [32, 32],
      [25, 38],
      [38, 25],
    ]) {
      const expected = gradient(x, y);
      rgbAt(out, x, y).forEach((v, c) => expect(Math.abs(v - expected[c])).toBeLessThanOrEqual(8));
    }
    expect(rgbAt(out, 5, 5)).toEqual(gradient(5, 5)); // outside the mask: untouched
  });

  it('resizes to targetWidth × targetHeight', async () => {
    const ctx = fakeContext({
      asset_in: await drawPng(32, 32, gradient),
      asset_mask: await drawPng(32, 32, (x) => (x < 4 ? [255, 255, 255] : [0, 0, 0])),
    });
    await engine.run(
      job('generative-fill', { image: 'asset_in', maskId: 'asset_mask', targetWidth: 64, targetHeight: 48 }),
      ctx,
    );
    expect(await pixels(ctx.files[0].bytes)).toMatchObject({ width: 64, height: 48 });
  });
});

describe('image engine: reframe', () => {
  it('puts the picture on the target canvas and fills the rest from context', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(40, 40, gradient) });
    const result = await engine.run(
      job('reframe', { image: 'asset_in', targetWidth: 100, targetHeight: 40, inputLocation: 'left' }),
      ctx,
    );
    const out = await pixels(ctx.files[0].bytes);
    expect([out.width, out.height]).toEqual([100, 40]);
    expect(result.outputs[0].metadata).toMatchObject({
      placement: { left: 0, top: 0, width: 40, height: 40 },
    });
    expect(rgbAt(out, 10, 10)).toEqual(gradient(10, 10));
    // Just past the edge: the mirrored continuation (close to the edge colour), no hard seam.
    const edge = rgbAt(out, 39, 20);
    rgbAt(out, 41, 20).forEach((v, c) => expect(Math.abs(v - edge[c])).toBeLessThanOrEqual(10));
    // Far away: filled, opaque, in the picture's range of colours.
    const far = [...out.data.subarray((20 * 100 + 95) * 4, (20 * 100 + 95) * 4 + 4)];
    expect(far[3]).toBe(255);
    expect(far[2]).toBe(150);
  });
});

describe('image engine: segment', () => {
  const scene = () =>
    drawPng(60, 60, (x, y) => (x >= 20 && x < 40 && y >= 15 && y < 45 ? [30, 90, 200] : [240, 240, 235]));
  const mask = async (ctx: ReturnType<typeof fakeContext>) => {
    const out = await pixels(ctx.files[0].bytes);
    return (x: number, y: number) => out.data[(y * 60 + x) * 4];
  };

  it('masks the foreground as a child segmentation-mask (white object on black)', async () => {
    const ctx = fakeContext({ asset_in: await scene() });
    const result = await engine.run(job('segment', { image: 'asset_in' }), ctx);
    expect(result.outputs).toHaveLength(1);
    expect(result.outputs[0]).toMatchObject({
      assetType: 'segmentation-mask',
      parentAssetId: 'asset_in',
      metadata: { method: 'foreground' },
    });
    const at = await mask(ctx);
    expect(at(30, 30)).toBe(255);
    expect(at(5, 5)).toBe(0);
    expect(at(19, 30)).toBe(0);
    expect(at(20, 30)).toBe(255);
  });

  it('takes the region under a positive point, and adds a cut-out with resultImage', async () => {
    const ctx = fakeContext({ asset_in: await scene() });
    const result = await engine.run(
      job('segment', { image: 'asset_in', points: [[1, 30, 30]], resultImage: true, dilate: 2 }),
      ctx,
    );
    expect(result.outputs.map((o) => o.assetType)).toEqual(['segmentation-mask', 'segmentation-image']);
    const at = await mask(ctx);
    expect(at(30, 30)).toBe(255);
    expect(at(18, 30)).toBe(255); // dilated by 2
    expect(at(10, 30)).toBe(0);
    const cut = await pixels(ctx.files[1].bytes);
    expect(cut.data[(5 * 60 + 5) * 4 + 3]).toBe(0);
    expect(cut.data[(30 * 60 + 30) * 4 + 3]).toBe(255);
  });

  it('segments inside a bounding box', async () => {
    const ctx = fakeContext({ asset_in: await scene() });
    await engine.run(job('segment', { image: 'asset_in', bbox: [10, 5, 50, 55] }), ctx);
    const at = await mask(ctx);
    expect(at(30, 30)).toBe(255);
    expect(at(12, 8)).toBe(0);
  });
});

describe('image engine: restyle', () => {
  it('moves the colours towards the style images (Reinhard transfer in Lab)', async () => {
    const ctx = fakeContext({
      asset_in: await drawPng(32, 32, (x, y) => [100 + x, 100 + y, 100]),
      asset_style: await drawPng(16, 16, (x) => [200 + x, 60, 30]),
    });
    const result = await engine.run(
      job('restyle', { image: 'asset_in', styleImages: ['asset_style'], styleFidelity: 100 }),
      ctx,
    );
    expect(result.outputs[0]).toMatchObject({ assetType: 'restyle', parentAssetId: 'asset_in' });
    const out = await pixels(ctx.files[0].bytes);
    let r = 0;
    let b = 0;
    for (let i = 0; i < 32 * 32; i++) {
      r += out.data[i * 4];
      b += out.data[i * 4 + 2];
    }
    expect(r / 1024).toBeGreaterThan(180);
    expect(b / 1024).toBeLessThan(70);
    // Structure kept: the horizontal gradient still increases in lightness.
    expect(out.data[(16 * 32 + 31) * 4]).toBeGreaterThanOrEqual(out.data[16 * 32 * 4]);
  });
});

describe('image engine: patch', () => {
  it('paints the patch at its position and erases with mode erase', async () => {
    const base = await drawPng(20, 20, () => [255, 255, 255]);
    const red = await drawPng(5, 5, () => [255, 0, 0]);
    const over = fakeContext({ asset_in: base, 'generation-inputs/proj_1/p/patch.image.png': red });
    await engine.run(
      job(
        'patch',
        {
          image: 'asset_in',
          patch: { mode: 'override', image: 'generation-inputs/proj_1/p/patch.image.png' },
          position: { x: 10, y: 2 },
        },
        { jobType: 'patch-image' },
      ),
      over,
    );
    const o = await pixels(over.files[0].bytes);
    expect(rgbAt(o, 12, 4)).toEqual([255, 0, 0]);
    expect(rgbAt(o, 9, 4)).toEqual([255, 255, 255]);
    expect(over.files[0]).toMatchObject({ assetType: 'patch', parentAssetId: 'asset_in' });

    const erase = fakeContext({ asset_in: base, asset_p: red });
    await engine.run(
      job('patch', {
        image: 'asset_in',
        patch: { mode: 'erase', image: 'asset_p' },
        position: { x: -2, y: -2 },
        allowOverflow: true,
      }),
      erase,
    );
    const e = await pixels(erase.files[0].bytes);
    expect([e.width, e.height]).toEqual([22, 22]);
    expect(e.data[(3 * 22 + 3) * 4 + 3]).toBe(0);
    expect(rgbAt(e, 0, 21)).toEqual([255, 255, 255]); // grown area: white background
  });

  it('crops first', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(20, 20, gradient) });
    await engine.run(
      job('patch', { image: 'asset_in', crop: { left: 5, top: 5, width: 10, height: 8 } }),
      ctx,
    );
    const out = await pixels(ctx.files[0].bytes);
    expect([out.width, out.height]).toEqual([10, 8]);
    expect(rgbAt(out, 0, 0)).toEqual(gradient(5, 5));
  });
});

describe('image engine: remove-background and other detections', () => {
  it('removes a plain background', async () => {
    const ctx = fakeContext({
      asset_in: await drawPng(40, 40, (x, y) =>
        Math.hypot(x - 20, y - 20) < 10 ? [200, 40, 40] : [250, 250, 250],
      ),
    });
    const result = await engine.run(job('remove-background', { image: 'asset_in' }), ctx);
    expect(result.outputs[0].assetType).toBe('background-removal');
    const out = await pixels(ctx.files[0].bytes);
    expect(out.data[(2 * 40 + 2) * 4 + 3]).toBe(0);
    expect(out.data[(20 * 40 + 20) * 4 + 3]).toBe(255);
  });

  it.each(['grayscale', 'lineart_anime', 'sketch', 'scribble', 'normal', 'segmentation'])(
    'detects %s at the input size',
    async (modality) => {
      const ctx = fakeContext({
        asset_in: await drawPng(48, 32, (x, y) => (x > 20 ? [20, 20, 20] : gradient(x, y))),
      });
      await engine.run(job('detect', { image: 'asset_in', modality }), ctx);
      expect(await pixels(ctx.files[0].bytes)).toMatchObject({ width: 48, height: 32 });
    },
  );
});
