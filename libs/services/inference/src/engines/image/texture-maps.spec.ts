import { ImageEngine } from './image.engine';
import { drawPng, fakeContext, job, pixels } from '../testing/fake-context';

describe('image engine: texture', () => {
  const engine = new ImageEngine();

  it('makes six maps, each a child of the texture, which is the albedo', async () => {
    const ctx = fakeContext({
      asset_tex: await drawPng(48, 48, (x, y) => [(x * 5) % 256, (y * 5) % 256, 90]),
    });
    const result = await engine.run(job('texture', { texture: 'asset_tex' }, { jobType: 'texture' }), ctx);
    expect(result.outputs.map((o) => o.assetType)).toEqual([
      'texture-height',
      'texture-normal',
      'texture-smoothness',
      'texture-metallic',
      'texture-edge',
      'texture-ao',
    ]);
    expect(result.outputs.every((o) => o.parentAssetId === 'asset_tex')).toBe(true);
    expect(result.extra).toEqual({ albedoAssetId: 'asset_tex' });
    for (const file of ctx.files) expect(await pixels(file.bytes)).toMatchObject({ width: 48, height: 48 });
  });

  it('gives a flat height the normal (128, 128, 255) everywhere', async () => {
    const ctx = fakeContext({ asset_tex: await drawPng(32, 32, () => [120, 120, 120]) });
    await engine.run(job('texture', { texture: 'asset_tex', raised: 1 }), ctx);
    const normal = await pixels(ctx.files[1].bytes);
    for (let i = 0; i < 32 * 32; i++)
      expect([normal.data[i * 4], normal.data[i * 4 + 1], normal.data[i * 4 + 2]]).toEqual([128, 128, 255]);
  });

  it('tilts normals away from a bright bump (OpenGL: red right, green up)', async () => {
    const bump = (x: number, y: number) => 255 * Math.exp(-((x - 32) ** 2 + (y - 32) ** 2) / 60);
    const ctx = fakeContext({
      asset_tex: await drawPng(64, 64, (x, y) => [bump(x, y), bump(x, y), bump(x, y)]),
    });
    await engine.run(job('texture', { texture: 'asset_tex' }), ctx);
    const normal = await pixels(ctx.files[1].bytes);
    const at = (x: number, y: number) => [...normal.data.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 3)];
    expect(at(26, 32)[0]).toBeLessThan(118); // west slope faces west
    expect(at(38, 32)[0]).toBeGreaterThan(138); // east slope faces east
    expect(at(32, 26)[1]).toBeGreaterThan(138); // north slope (top of the image) faces up
    expect(at(32, 38)[1]).toBeLessThan(118);
    const height = await pixels(ctx.files[0].bytes);
    expect(height.data[(32 * 64 + 32) * 4]).toBeGreaterThan(height.data[(5 * 64 + 5) * 4]);
    const ao = await pixels(ctx.files[5].bytes);
    expect(ao.data[(32 * 64 + 32) * 4]).toBe(255); // the top of the bump is not occluded
  });
});
