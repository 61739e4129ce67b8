import type { EngineContext, EngineResult, ModeJob } from '../../engine';
import { int, num, str } from '../params';
import { checkPixels, open, sizeOf } from '../raster';
import { placement, reframe, type InputLocation } from '../reframe';
import { mainImage, writePng } from './io';

const LOCATIONS = ['middle', 'left', 'right', 'top', 'bottom'];

/** reframe → `reframe`: the image on a targetWidth × targetHeight canvas, the new area filled from context. */
export async function runReframe(job: ModeJob<'reframe'>, ctx: EngineContext): Promise<EngineResult> {
  const { input } = job;
  const { image, parent } = await mainImage(job, ctx);
  const source = await sizeOf(image.bytes, image.field);
  const canvas = {
    width: int(input.targetWidth, 0, 0, 2048) || source.width,
    height: int(input.targetHeight, 0, 0, 2048) || source.height,
  };
  checkPixels(canvas.width, canvas.height);
  const location = (
    LOCATIONS.includes(str(input.inputLocation) ?? '') ? input.inputLocation : 'middle'
  ) as InputLocation;
  const at = placement(source, canvas, num(input.resizeOption, 1, 0.1, 1), location);
  const { data, info } = await open(image.bytes)
    .rotate()
    .resize(at.width, at.height, { kernel: 'lanczos3', fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  await ctx.progress(0.2);
  const out = await reframe({ data, width: info.width, height: info.height, channels: 4 }, canvas, at);
  await ctx.progress(0.8);
  return {
    outputs: [await writePng(ctx, out, 'reframe', parent, { inputLocation: location, placement: at })],
  };
}
