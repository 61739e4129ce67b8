import sharp from 'sharp';
import type { EngineContext, EngineResult, ModeJob } from '../../engine';
import { bool, int, obj, str } from '../params';
import { checkPixels, decode, newRaster, parseColour, type Raster } from '../raster';
import { mainImage } from './io';

type Rgba = [number, number, number, number];

/**
 * patch → `patch`: optional crop first (outside the image filled with its
 * backgroundColor), then `patch.image` merged at `position`: `override` paints
 * it over (alpha compositing), `erase` clears the image where the patch is
 * opaque. With allowOverflow the canvas grows to hold the whole patch (new area
 * in backgroundColor, default white); otherwise the patch is clipped. jpeg
 * output is flattened onto backgroundColor.
 */
export async function runPatch(job: ModeJob<'patch'>, ctx: EngineContext): Promise<EngineResult> {
  const { input } = job;
  const { image, parent } = await mainImage(job, ctx);
  let base = await decode(image.bytes, image.field);
  const background = parseColour(str(input.backgroundColor), [255, 255, 255, 255]);
  const crop = obj(input.crop);
  if (crop) {
    base = cropped(base, {
      left: int(crop.left, 0),
      top: int(crop.top, 0),
      width: int(crop.width, base.width, 1),
      height: int(crop.height, base.height, 1),
      fill: parseColour(str(crop.backgroundColor), [0, 0, 0, 0]),
    });
  }
  await ctx.progress(0.2);
  const patch = obj(input.patch);
  const position = obj(input.position) ?? {};
  let x = int(position.x, 0);
  let y = int(position.y, 0);
  let out = base;
  if (patch?.image !== undefined) {
    const overlay = await decode((await ctx.readInput(patch.image, 'patch.image')).bytes, 'patch.image');
    if (bool(input.allowOverflow, false)) {
      const left = Math.min(0, x);
      const top = Math.min(0, y);
      const width = Math.max(base.width, x + overlay.width) - left;
      const height = Math.max(base.height, y + overlay.height) - top;
      if (width !== base.width || height !== base.height) {
        out = cropped(base, { left, top, width, height, fill: background });
        x -= left;
        y -= top;
      }
    }
    merge(out, overlay, x, y, str(patch.mode) === 'erase' ? 'erase' : 'override');
  }
  await ctx.progress(0.7);
  const jpeg = str(input.format) === 'jpeg';
  const pipeline = sharp(Buffer.from(out.data), {
    raw: { width: out.width, height: out.height, channels: 4 },
  });
  const bytes = jpeg
    ? await pipeline
        .flatten({ background: { r: background[0], g: background[1], b: background[2] } })
        .jpeg({ quality: 92 })
        .toBuffer()
    : await pipeline.png().toBuffer();
  const output = await ctx.writeOutput({
    bytes,
    mimeType: jpeg ? 'image/jpeg' : 'image/png',
    assetType: 'patch',
    ...(parent ? { parentAssetId: parent } : {}),
    metadata: {
      width: out.width,
      height: out.height,
      ...(patch ? { patchMode: str(patch.mode) ?? 'override', position: { x, y } } : {}),
    },
  });
  return { outputs: [output] };
}

/** The region (may reach outside the raster; that part takes `fill`). */
function cropped(
  src: Raster,
  region: { left: number; top: number; width: number; height: number; fill: Rgba },
): Raster {
  checkPixels(region.width, region.height);
  const out = newRaster(region.width, region.height, 4);
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      const sx = x + region.left;
      const sy = y + region.top;
      const o = (y * region.width + x) * 4;
      if (sx < 0 || sy < 0 || sx >= src.width || sy >= src.height) out.data.set(region.fill, o);
      else out.data.set(src.data.subarray((sy * src.width + sx) * 4, (sy * src.width + sx) * 4 + 4), o);
    }
  }
  return out;
}

function merge(base: Raster, overlay: Raster, left: number, top: number, mode: 'override' | 'erase'): void {
  for (let y = Math.max(0, top); y < Math.min(base.height, top + overlay.height); y++) {
    for (let x = Math.max(0, left); x < Math.min(base.width, left + overlay.width); x++) {
      const o = (y * base.width + x) * 4;
      const p = ((y - top) * overlay.width + (x - left)) * 4;
      const a = overlay.data[p + 3] / 255;
      if (a === 0) continue;
      if (mode === 'erase') {
        base.data[o + 3] = Math.round(base.data[o + 3] * (1 - a));
        continue;
      }
      const b = base.data[o + 3] / 255;
      const outA = a + b * (1 - a);
      for (let c = 0; c < 3; c++)
        base.data[o + c] = Math.round((overlay.data[p + c] * a + base.data[o + c] * b * (1 - a)) / outA);
      base.data[o + 3] = Math.round(outA * 255);
    }
  }
}
