import { MODE_TABLE } from '@genasset/contracts';
import { EngineError, type EngineContext, type EngineResult, type ModeJob } from '../../engine';
import { pixelate } from '../pixelate';
import { int } from '../params';
import { decode } from '../raster';
import { mainImage, writePng } from './io';

const FIELDS = MODE_TABLE.pixelate.fields;

/** pixelate → one `pixelization` asset, child of the input. */
export async function runPixelate(job: ModeJob<'pixelate'>, ctx: EngineContext): Promise<EngineResult> {
  const { input } = job;
  // The route's rule, from the mode table: a job that did not come through the route is held to it too.
  const gridSize = input.pixelGridSize;
  if (!(FIELDS.pixelGridSize.enum as readonly number[]).includes(gridSize))
    throw new EngineError(`pixelGridSize must be one of ${FIELDS.pixelGridSize.enum.join(', ')}`);
  const { image, parent } = await mainImage(job, ctx);
  const palette = paletteOf(input.colorPalette);
  const src = await decode(image.bytes, image.field);
  await ctx.progress(0.2);
  const result = await pixelate(src, {
    gridSize,
    palette,
    // No palette size given: 16 colours (the route documents none).
    paletteSize: int(input.colorPaletteSize, 16, FIELDS.colorPaletteSize.min, FIELDS.colorPaletteSize.max),
    removeNoise: input.removeNoise,
    removeBackground: input.removeBackground ?? FIELDS.removeBackground.default,
  });
  await ctx.progress(0.8);
  const output = await writePng(ctx, result.raster, MODE_TABLE.pixelate.outputs[0], parent, {
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
