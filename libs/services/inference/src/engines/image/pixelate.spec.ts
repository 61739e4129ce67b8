import { ImageEngine } from './image.engine';
import { drawPng, fakeContext, job, pixels } from '../testing/fake-context';

/** Colour (as "r,g,b,a") of every pixel of each grid×grid cell; throws if a cell is not uniform. */
function cellColours(img: { data: Buffer; width: number; height: number }, grid: number): Set<string> {
  const colours = new Set<string>();
  for (let cy = 0; cy < Math.ceil(img.height / grid); cy++) {
    for (let cx = 0; cx < Math.ceil(img.width / grid); cx++) {
      let cell: string | undefined;
      for (let y = cy * grid; y < Math.min(img.height, (cy + 1) * grid); y++) {
        for (let x = cx * grid; x < Math.min(img.width, (cx + 1) * grid); x++) {
          const p = (y * img.width + x) * 4;
          const colour = `${img.data[p]},${img.data[p + 1]},${img.data[p + 2]},${img.data[p + 3]}`;
          if (cell === undefined) cell = colour;
          else if (cell !== colour)
            throw new Error(`cell (${cx}, ${cy}) is not uniform: ${cell} and ${colour} at (${x}, ${y})`);
        }
      }
      colours.add(cell!);
    }
  }
  return colours;
}

describe('image engine: pixelate', () => {
  const engine = new ImageEngine();
  // A noisy diagonal gradient, 100 × 70: neither side a multiple of the grid.
  const picture = () =>
    drawPng(100, 70, (x, y) => [(x * 2 + ((x * 7 + y * 13) % 11)) % 256, (y * 3) % 256, (x + y) % 256]);

  it('makes uniform grid × grid blocks of at most colorPaletteSize colours, the input size kept', async () => {
    const ctx = fakeContext({ asset_in: await picture() });
    const result = await engine.run(
      job('pixelate', { image: 'asset_in', pixelGridSize: 16, removeNoise: false, colorPaletteSize: 5 }),
      ctx,
    );
    expect(result.outputs).toHaveLength(1);
    expect(result.outputs[0]).toMatchObject({
      assetType: 'pixelization',
      parentAssetId: 'asset_in',
      mimeType: 'image/png',
    });
    const out = await pixels(ctx.files[0].bytes);
    expect([out.width, out.height]).toEqual([100, 70]);
    const colours = cellColours(out, 16);
    expect(colours.size).toBeLessThanOrEqual(5);
    expect(colours.size).toBeGreaterThan(1);
    expect(result.outputs[0].metadata).toMatchObject({ pixelGridSize: 16, cells: [7, 5] });
  });

  it('paints only colours of a given palette', async () => {
    const palette = [
      [0, 0, 0],
      [255, 255, 255],
      [200, 30, 30],
    ];
    const ctx = fakeContext({ asset_in: await picture() });
    await engine.run(
      job('pixelate', { image: 'asset_in', pixelGridSize: 32, removeNoise: true, colorPalette: palette }),
      ctx,
    );
    const out = await pixels(ctx.files[0].bytes);
    const allowed = new Set(palette.map((c) => `${c.join(',')},255`));
    for (const colour of cellColours(out, 32)) expect(allowed).toContain(colour);
  });

  it('turns the border-connected background transparent with removeBackground', async () => {
    // A red square on white: the white cells become transparent, the red ones stay.
    const ctx = fakeContext({
      asset_in: await drawPng(64, 64, (x, y) =>
        x >= 16 && x < 48 && y >= 16 && y < 48 ? [220, 20, 20] : [255, 255, 255],
      ),
    });
    await engine.run(
      job('pixelate', { image: 'asset_in', pixelGridSize: 16, removeNoise: false, removeBackground: true }),
      ctx,
    );
    const out = await pixels(ctx.files[0].bytes);
    const at = (x: number, y: number) => [...out.data.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 4)];
    expect(at(2, 2)[3]).toBe(0);
    expect(at(32, 32)).toEqual([220, 20, 20, 255]);
  });

  it('is deterministic', async () => {
    const input = await picture();
    const a = fakeContext({ asset_in: input });
    const b = fakeContext({ asset_in: input });
    const request = { image: 'asset_in', pixelGridSize: 16, removeNoise: true, colorPaletteSize: 6 };
    await engine.run(job('pixelate', request), a);
    await engine.run(job('pixelate', request), b);
    expect(a.files[0].bytes.equals(b.files[0].bytes)).toBe(true);
  });

  // The request documents 16, 32, 64, 128 or 256 (the mode table); the engine used to take 1–4096.
  it('holds a job that did not come through the route to the route’s grid sizes', async () => {
    const ctx = fakeContext({ asset_in: await picture() });
    await expect(
      engine.run(job('pixelate', { image: 'asset_in', pixelGridSize: 12, removeNoise: false }), ctx),
    ).rejects.toThrow('pixelGridSize must be one of 16, 32, 64, 128, 256');
    expect(ctx.files).toEqual([]);
  });
});
