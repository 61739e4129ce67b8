import { DETECT_MODALITY_ENGINES, MODE_TABLE } from '@genasset/contracts';
import { EngineError, type EngineContext, type EngineResult, type ModeJob } from '../../engine';
import { CLASSICAL_MODALITIES, detectionMap, type ClassicalModality } from '../detect';
import { decode } from '../raster';
import { mainImage, writePng } from './io';

/** detect → one `detection` map of `modality` (canny by default), child of the input. */
export async function runDetect(job: ModeJob<'detect'>, ctx: EngineContext): Promise<EngineResult> {
  const modality = job.input.modality ?? MODE_TABLE.detect.fields.modality.default;
  // The mode table gives the image engine the classical modalities; the rest go to a model's engine.
  if (DETECT_MODALITY_ENGINES[modality] !== 'image') {
    throw new EngineError(
      `the image engine cannot detect ${modality}: it computes ${CLASSICAL_MODALITIES.join(', ')}`,
    );
  }
  const { image, parent } = await mainImage(job, ctx);
  const src = await decode(image.bytes, image.field);
  await ctx.progress(0.2);
  const map = detectionMap(src, modality as ClassicalModality, job.input);
  await ctx.progress(0.8);
  return { outputs: [await writePng(ctx, map, MODE_TABLE.detect.outputs[0], parent, { modality })] };
}
