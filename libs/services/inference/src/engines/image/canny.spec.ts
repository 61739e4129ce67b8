import { canny } from './canny';
import { ImageEngine } from './image.engine';
import { drawPng, fakeContext, job, pixels } from '../testing/fake-context';

describe('canny', () => {
  // A white rectangle (x 16–47, y 20–43) on black, 64 × 64.
  const inside = (x: number, y: number) => x >= 16 && x <= 47 && y >= 20 && y <= 43;
  const plane = () =>
    Float32Array.from({ length: 64 * 64 }, (_, i) => (inside(i % 64, Math.floor(i / 64)) ? 255 : 0));

  it('finds the edges of a drawn rectangle, one pixel thin, and nothing else', () => {
    const edges = canny(plane(), 64, 64, { low: 100, high: 200 });
    const at = (x: number, y: number) => edges[y * 64 + x] === 255;
    const near = (x: number, y: number) =>
      (Math.min(Math.abs(x - 15.5), Math.abs(x - 47.5)) <= 1.5 && y >= 18 && y <= 45) ||
      (Math.min(Math.abs(y - 19.5), Math.abs(y - 43.5)) <= 1.5 && x >= 14 && x <= 49);
    let onBorder = 0;
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 64; x++) {
        if (!at(x, y)) continue;
        expect({ x, y, near: near(x, y) }).toEqual({ x, y, near: true });
        onBorder++;
      }
    }
    // Each side is traced over (almost) its whole length: left and right columns, top and bottom rows.
    const column = (x0: number) =>
      Array.from({ length: 20 }, (_, k) => 22 + k).filter((y) => at(x0, y) || at(x0 + 1, y) || at(x0 - 1, y))
        .length;
    const row = (y0: number) =>
      Array.from({ length: 28 }, (_, k) => 18 + k).filter((x) => at(x, y0) || at(x, y0 + 1) || at(x, y0 - 1))
        .length;
    expect(column(16)).toBe(20);
    expect(column(47)).toBe(20);
    expect(row(20)).toBe(28);
    expect(row(43)).toBe(28);
    // Thin: no 2 × 2 block of edge pixels along the straight parts.
    expect(at(16, 30) && at(17, 30) && at(16, 31) && at(17, 31)).toBe(false);
    expect(onBorder).toBeLessThan(2 * (32 + 24) + 16);
  });

  it('finds nothing when the contrast is under the low threshold', () => {
    const faint = plane().map((v) => v / 20);
    expect(canny(faint, 64, 64, { low: 100, high: 200 }).some((v) => v > 0)).toBe(false);
  });

  it('detect with modality canny outputs the edge map as a detection asset', async () => {
    const ctx = fakeContext({
      asset_in: await drawPng(64, 64, (x, y) => (inside(x, y) ? [255, 255, 255] : [0, 0, 0])),
    });
    const result = await new ImageEngine().run(
      job('detect', { image: 'asset_in', modality: 'canny', lowThreshold: 50, highThreshold: 150 }),
      ctx,
    );
    expect(result.outputs[0]).toMatchObject({
      assetType: 'detection',
      parentAssetId: 'asset_in',
      metadata: { modality: 'canny' },
    });
    const out = await pixels(ctx.files[0].bytes);
    expect(out.data[(30 * 64 + 16) * 4] === 255 || out.data[(30 * 64 + 15) * 4] === 255).toBe(true);
    expect(out.data[(30 * 64 + 30) * 4]).toBe(0);
  });

  it('refuses modalities that need a model, naming those it computes', async () => {
    const ctx = fakeContext({ asset_in: await drawPng(8, 8, () => [0, 0, 0]) });
    await expect(
      new ImageEngine().run(job('detect', { image: 'asset_in', modality: 'depth' }), ctx),
    ).rejects.toThrow(/cannot detect depth: it computes canny, grayscale/);
  });
});
