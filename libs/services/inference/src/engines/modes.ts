import { isGenerationMode, isModeRoute, modeOfJobType, type GenerationMode, type JobType } from '@genasset/contracts';
import { str } from './image/params';

// What a mode is (its output types, its engines, its job type) is the mode table of libs/contracts;
// this file adds only the worker's own routes and reads jobs by it.
export { isResultMode, outputAssetType, routeOf } from '@genasset/contracts';

export { TRAINING_ROUTE, knownRoute } from '@genasset/config';
/** Model exports: not an engine choice, the worker packs the files itself. */
export const EXPORT_ROUTE = 'model-download';

/**
 * The generation mode of a job: `input.generationMode` (what the generate
 * routes record), else the one its job type names; inference jobs without it
 * fall back on the upstream `type` spelling (txt2img_ip_adapter). Undefined
 * when nothing says.
 */
export function modeOf(jobType: JobType, input: Record<string, unknown>): GenerationMode | undefined {
  const declared = str(input.generationMode);
  if (declared) return isGenerationMode(declared) ? declared : undefined;
  if (jobType === 'inference') {
    const type = str(input.type)?.replace(/_/g, '-');
    return type && isGenerationMode(type) ? type : undefined;
  }
  return modeOfJobType(jobType);
}

export { isModeRoute };
