import {
  EngineError,
  type EngineContext,
  type EngineResult,
  type StoredOutput,
  type ModeJob,
} from '../../engine';
import { bool, int, str } from '../params';
import { decode, newRaster } from '../raster';
import { segment } from '../segment';
import { mainImage, writePng } from './io';

/**
 * segment → a `segmentation-mask` (white object on black, child of the input; resultMask,
 * default true) and/or a `segmentation-image` cut-out (resultImage; background at
 * backgroundOpacity). `text` needs a model: it is ignored (noted in the metadata).
 */
export async function runSegment(job: ModeJob<'segment'>, ctx: EngineContext): Promise<EngineResult> {
  const { input } = job;
  const wantMask = bool(input.resultMask, true);
  const wantImage = bool(input.resultImage, false);
  if (!wantMask && !wantImage)
    throw new EngineError('resultMask and resultImage are both false: there is nothing to output');
  const { image, parent } = await mainImage(job, ctx);
  const src = await decode(image.bytes, image.field);
  await ctx.progress(0.2);
  const result = segment(src, {
    bbox: Array.isArray(input.bbox) ? (input.bbox as number[]) : undefined,
    points: Array.isArray(input.points) ? (input.points as number[][]) : undefined,
    dilate: int(input.dilate, 0, 0, 30),
    betterQuality: bool(input.betterQuality, false),
  });
  await ctx.progress(0.7);
  const metadata = { method: result.method, ...(str(input.text) ? { ignored: ['text'] } : {}) };
  const outputs: StoredOutput[] = [];
  if (wantMask) {
    outputs.push(
      await writePng(
        ctx,
        { data: result.mask, width: src.width, height: src.height, channels: 1 },
        'segmentation-mask',
        parent,
        metadata,
      ),
    );
  }
  if (wantImage) {
    const backgroundAlpha = int(input.backgroundOpacity, 0, 0, 255);
    const cut = newRaster(src.width, src.height, 4);
    for (let i = 0; i < result.mask.length; i++) {
      cut.data.set(src.data.subarray(i * 4, i * 4 + 3), i * 4);
      cut.data[i * 4 + 3] = result.mask[i]
        ? src.data[i * 4 + 3]
        : Math.min(backgroundAlpha, src.data[i * 4 + 3]);
    }
    outputs.push(await writePng(ctx, cut, 'segmentation-image', parent, metadata));
  }
  return { outputs };
}
