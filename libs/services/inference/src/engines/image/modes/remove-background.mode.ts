import sharp from 'sharp';
import type { EngineContext, EngineResult, ModeJob } from '../../engine';
import { detectBackground } from '../background';
import { gaussianBlur, decode, parseColour } from '../raster';
import { str } from '../params';
import { mainImage } from './io';

/**
 * remove-background → `background-removal`: the border-connected background
 * (flood fill from the edges, see background.ts) made transparent with a
 * 1 px feathered edge; flattened onto backgroundColor when one is given (or
 * for jpeg output, onto white by default).
 */
export async function runRemoveBackground(
  job: ModeJob<'remove-background'>,
  ctx: EngineContext,
): Promise<EngineResult> {
  const { input } = job;
  const { image, parent } = await mainImage(job, ctx);
  const src = await decode(image.bytes, image.field);
  await ctx.progress(0.2);
  const background = detectBackground(src);
  const alpha = gaussianBlur(
    Float32Array.from(background, (b) => (b ? 0 : 255)),
    src.width,
    src.height,
    0.7,
  );
  for (let i = 0; i < background.length; i++)
    src.data[i * 4 + 3] = Math.round(Math.min(src.data[i * 4 + 3], alpha[i]));
  await ctx.progress(0.7);
  const jpeg = str(input.format) === 'jpeg';
  const colour = str(input.backgroundColor);
  const fill = parseColour(colour, [255, 255, 255, 255]);
  let pipeline = sharp(Buffer.from(src.data), { raw: { width: src.width, height: src.height, channels: 4 } });
  if (jpeg || (colour && fill[3] > 0))
    pipeline = pipeline.flatten({ background: { r: fill[0], g: fill[1], b: fill[2] } });
  const bytes = jpeg ? await pipeline.jpeg({ quality: 92 }).toBuffer() : await pipeline.png().toBuffer();
  const output = await ctx.writeOutput({
    bytes,
    mimeType: jpeg ? 'image/jpeg' : 'image/png',
    assetType: 'background-removal',
    ...(parent ? { parentAssetId: parent } : {}),
    metadata: { width: src.width, height: src.height, method: 'border flood fill' },
  });
  return { outputs: [output] };
}
