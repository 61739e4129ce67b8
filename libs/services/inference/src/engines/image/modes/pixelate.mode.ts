import { EngineError, type EngineContext, type EngineJob, type EngineResult } from '../../engine';
import { pixelate } from '../pixelate';
import { bool, int } from '../params';
import { decode } from '../raster';
import { mainImage, writePng } from './io';

/** pixelate → one `pixelization` asset, child of the input. */
export async function runPixelate(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
  const { input } = job;
  const { image, parent } = await mainImage(job, ctx);
  const palette = paletteOf(input.colorPalette);
  const gridSize = int(input.pixelGridSize, 32, 1, 4096);
  const src = await decode(image.bytes, image.field);
  await ctx.progress(0.2);
  const result = await pixelate(src, {
    gridSize,
    palette,
    paletteSize: int(input.colorPaletteSize, 16, 2, 256),
    removeNoise: bool(input.removeNoise, false),
    removeBackground: bool(input.removeBackground, false),
  });
  await ctx.progress(0.8);
  const output = await writePng(ctx, result.raster, 'pixelization', parent, {
    pixelGridSize: gridSize,
    cells: [result.cellsX, result.cellsY],
    palette: result.palette,
  });
  return { outputs: [output] };
}

function paletteOf(value: unknown): number[][] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.map((entry, i) => {
    if (
      !Array.isArray(entry) ||
      entry.length !== 3 ||
      entry.some((v) => typeof v !== 'number' || v < 0 || v > 255)
    ) {
      throw new EngineError(`colorPalette.${i} must be [r, g, b] with values within 0–255`);
    }
    return entry.map((v: number) => Math.round(v));
  });
}
