import { EngineError, type EngineContext, type EngineJob, type EngineResult } from '../../engine';
import { CLASSICAL_MODALITIES, detectionMap, type ClassicalModality } from '../detect';
import { str } from '../params';
import { decode } from '../raster';
import { mainImage, writePng } from './io';

/** detect → one `detection` map of `modality` (canny by default), child of the input. */
export async function runDetect(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
  const modality = str(job.input.modality) ?? 'canny';
  if (!(CLASSICAL_MODALITIES as readonly string[]).includes(modality)) {
    throw new EngineError(
      `the image engine cannot detect ${modality}: it computes ${CLASSICAL_MODALITIES.join(', ')}`,
    );
  }
  const { image, parent } = await mainImage(job, ctx);
  const src = await decode(image.bytes, image.field);
  await ctx.progress(0.2);
  const map = detectionMap(src, modality as ClassicalModality, job.input);
  await ctx.progress(0.8);
  return { outputs: [await writePng(ctx, map, 'detection', parent, { modality })] };
}
