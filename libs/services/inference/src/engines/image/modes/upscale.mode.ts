import { MODE_TABLE } from '@genasset/contracts';
import type { EngineContext, EngineResult, ModeJob } from '../../engine';
import { int, num } from '../params';
import { sizeOf } from '../raster';
import { lanczosUpscale, upscaleSize } from '../upscale';
import { mainImage } from './io';

/**
 * upscale → `upscale` (Lanczos-3 to `scalingFactor`, default 2, or `targetWidth`; `imageType`
 * texture wraps both axes → `upscale-texture`, skybox wraps horizontally → `upscale-skybox`;
 * `detailsLevel` sharpens or softens).
 * skybox-upscale-360 → `upscale-skybox`, always wrapped horizontally.
 */
export async function runUpscale(
  job: ModeJob<'upscale'> | ModeJob<'skybox-upscale-360'>,
  ctx: EngineContext,
): Promise<EngineResult> {
  const { input } = job;
  const skybox = job.mode === 'skybox-upscale-360';
  const imageType =
    job.mode === 'skybox-upscale-360'
      ? 'skybox'
      : (job.input.imageType ?? MODE_TABLE.upscale.fields.imageType.default);
  const { image, parent } = await mainImage(job, ctx);
  const source = await sizeOf(image.bytes, image.field);
  const target = upscaleSize(
    source.width,
    source.height,
    num(input.scalingFactor, 2, 1, skybox ? 8 : 16),
    int(input.targetWidth, 0, 0, 16000) || undefined,
  );
  await ctx.progress(0.1);
  const bytes = await lanczosUpscale(image.bytes, {
    width: target.width,
    height: target.height,
    wrapX: imageType === 'skybox' || imageType === 'texture',
    wrapY: imageType === 'texture',
    detailsLevel: num(input.detailsLevel, 0, -50, 50),
  });
  await ctx.progress(0.8);
  const output = await ctx.writeOutput({
    bytes,
    mimeType: 'image/png',
    assetType:
      skybox || imageType === 'skybox'
        ? 'upscale-skybox'
        : imageType === 'texture'
          ? 'upscale-texture'
          : 'upscale',
    ...(parent ? { parentAssetId: parent } : {}),
    metadata: {
      width: target.width,
      height: target.height,
      scalingFactor: round(target.factor),
      kernel: 'lanczos3',
      imageType,
    },
  });
  return { outputs: [output] };
}

const round = (v: number) => Math.round(v * 1000) / 1000;
