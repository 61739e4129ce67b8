import sharp from 'sharp';
import { ImageEngine } from './image.engine';
import { drawPng, fakeContext, job, pixels } from '../testing/fake-context';

describe('image engine: upscale and skybox-upscale-360', () => {
  const engine = new ImageEngine();

  it('upscales by scalingFactor (default 2) or to targetWidth, aspect kept', async () => {
    const input = await drawPng(40, 30, (x, y) => [x * 6, y * 8, 100]);
    const byFactor = fakeContext({ asset_in: input });
    await engine.run(job('upscale', { image: 'asset_in', scalingFactor: 3 }), byFactor);
    expect(await pixels(byFactor.files[0].bytes)).toMatchObject({ width: 120, height: 90 });
    expect(byFactor.files[0]).toMatchObject({
      assetType: 'upscale',
      parentAssetId: 'asset_in',
      metadata: { kernel: 'lanczos3', scalingFactor: 3 },
    });

    const byDefault = fakeContext({ asset_in: input });
    await engine.run(job('upscale', { image: 'asset_in' }), byDefault);
    expect(await pixels(byDefault.files[0].bytes)).toMatchObject({ width: 80, height: 60 });

    const byWidth = fakeContext({ asset_in: input });
    await engine.run(job('upscale', { image: 'asset_in', scalingFactor: 2, targetWidth: 1024 }), byWidth);
    expect(await pixels(byWidth.files[0].bytes)).toMatchObject({ width: 1024, height: 768 });
  });

  it('keeps a 360° panorama seamless: the result equals the middle of an upscaled three-panel strip', async () => {
    // Horizontally periodic content (one period = the width) with sharp detail at the seam.
    const width = 48;
    const height = 24;
    const paint = (x: number, y: number) => [
      128 + 100 * Math.sin((2 * Math.PI * x) / width),
      (x * 37 + y * 11) % 256,
      x === 0 ? 255 : x === width - 1 ? 0 : 100,
    ];
    const input = await drawPng(width, height, paint);
    const ctx = fakeContext({ asset_in: input });
    await engine.run(
      job('skybox-upscale-360', { image: 'asset_in', scalingFactor: 2 }, { jobType: 'skybox-upscale-360' }),
      ctx,
    );
    expect(ctx.files[0].assetType).toBe('upscale-skybox');
    const out = await pixels(ctx.files[0].bytes);
    expect([out.width, out.height]).toEqual([96, 48]);

    // Reference: tile three copies, upscale the strip, take the middle copy.
    const strip = await sharp({ create: { width: width * 3, height, channels: 4, background: '#000' } })
      .composite([0, 1, 2].map((k) => ({ input, left: k * width, top: 0 })))
      .png()
      .toBuffer();
    const reference = await pixels(
      await sharp(strip)
        .resize(width * 6, height * 2, { kernel: 'lanczos3', fit: 'fill' })
        .extract({ left: 96, top: 0, width: 96, height: 48 })
        .png()
        .toBuffer(),
    );
    let worst = 0;
    for (let y = 4; y < 44; y++) {
      for (const x of [0, 1, 2, 93, 94, 95]) {
        for (let c = 0; c < 3; c++)
          worst = Math.max(
            worst,
            Math.abs(out.data[(y * 96 + x) * 4 + c] - reference.data[(y * 96 + x) * 4 + c]),
          );
      }
    }
    expect(worst).toBeLessThanOrEqual(3);

    // A plain (clamped) resize differs at the seam: the wrap matters.
    const plain = await pixels(
      await sharp(input).resize(96, 48, { kernel: 'lanczos3', fit: 'fill' }).png().toBuffer(),
    );
    let plainWorst = 0;
    for (let y = 4; y < 44; y++)
      for (const x of [0, 95])
        plainWorst = Math.max(
          plainWorst,
          Math.abs(plain.data[(y * 96 + x) * 4 + 2] - reference.data[(y * 96 + x) * 4 + 2]),
        );
    expect(plainWorst).toBeGreaterThan(10);
  });

  it('refuses an output beyond the pixel limit with numbers', async () => {
    const big = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const ctx = fakeContext({ asset_in: big });
    await expect(engine.run(job('upscale', { image: 'asset_in', scalingFactor: 16 }), ctx)).rejects.toThrow(
      /would be 32000×32000 pixels; this worker handles at most/,
    );
  });
});
