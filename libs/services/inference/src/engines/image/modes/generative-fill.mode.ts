import sharp from 'sharp';
import { EngineError, type EngineContext, type EngineResult, type ModeJob } from '../../engine';
import { dilate } from '../detect';
import { maskFromRaster, pullPushFill } from '../inpaint';
import { int } from '../params';
import { decode, encodePng } from '../raster';
import { mainImage, resizedPng } from './io';

/**
 * generative-fill → `generative-fill`: the white area of the mask (grown by 2 px to cover
 * anti-aliased edges) filled from its surroundings by pull-push inpainting; resized to
 * targetWidth × targetHeight when given.
 */
export async function runGenerativeFill(
  job: ModeJob<'generative-fill'>,
  ctx: EngineContext,
): Promise<EngineResult> {
  const { input } = job;
  const { image, parent } = await mainImage(job, ctx);
  const maskField = input.mask !== undefined ? 'mask' : 'maskId';
  const maskImage = await ctx.readInput(input[maskField], maskField);
  const picture = await decode(image.bytes, image.field);
  const maskBytes = await sharp(maskImage.bytes)
    .resize(picture.width, picture.height, { fit: 'fill' })
    .png()
    .toBuffer();
  const mask = maskFromRaster(await decode(maskBytes, maskField));
  const grown = dilate(
    Uint8Array.from(mask, (v) => v * 255),
    picture.width,
    picture.height,
    2,
  );
  const known = Uint8Array.from(grown, (v) => (v ? 0 : 1));
  if (!known.includes(1))
    throw new EngineError(`${maskField} covers the whole image: nothing is left to fill from`);
  await ctx.progress(0.2);
  const filled = await pullPushFill(picture, known, 40);
  await ctx.progress(0.8);
  let bytes = await encodePng(filled);
  let width = filled.width;
  let height = filled.height;
  const targetWidth = int(input.targetWidth, 0, 0, 2048);
  const targetHeight = int(input.targetHeight, 0, 0, 2048);
  if (targetWidth || targetHeight) {
    width = targetWidth || Math.round((filled.width * targetHeight) / filled.height);
    height = targetHeight || Math.round((filled.height * targetWidth) / filled.width);
    bytes = await resizedPng(bytes, width, height);
  }
  const filledPixels = grown.reduce((sum, v) => sum + (v ? 1 : 0), 0);
  const output = await ctx.writeOutput({
    bytes,
    mimeType: 'image/png',
    assetType: 'generative-fill',
    ...(parent ? { parentAssetId: parent } : {}),
    metadata: { width, height, filledPixels, method: 'pull-push inpainting' },
  });
  return { outputs: [output] };
}
