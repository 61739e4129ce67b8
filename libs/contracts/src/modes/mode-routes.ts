import type { JobType } from '../events/job-lifecycle.events';
import {
  DETECT_MODALITIES,
  DETECT_MODALITY_ENGINES,
  isGenerationMode,
  MODE_TABLE,
  MODES,
  type BuiltInEngine,
  type DetectModality,
  type GenerationMode,
} from './mode-table';

/**
 * A route is what the worker chooses an engine by: the mode, refined for detect by its modality
 * (`detect:canny` is computed, `detect:depth` needs a model).
 */
export type ModeRoute = Exclude<GenerationMode, 'detect'> | `detect:${DetectModality}`;

/** Every route, sorted: each mode, detect split by modality. */
export const MODE_ROUTES: readonly ModeRoute[] = [
  ...MODES.filter((m): m is Exclude<GenerationMode, 'detect'> => m !== 'detect'),
  ...DETECT_MODALITIES.map((m) => `detect:${m}` as const),
].sort();

export function isModeRoute(route: string): route is ModeRoute {
  return (MODE_ROUTES as readonly string[]).includes(route);
}

/** The route of a job of `mode` (detect's modality defaults to canny, as the route documents). */
export function routeOf(mode: string, input: { modality?: unknown }): string {
  if (mode !== 'detect') return mode;
  return `detect:${typeof input.modality === 'string' && input.modality ? input.modality : 'canny'}`;
}

/** The mode of a route: `detect:depth` → detect. */
export function modeOfRoute(route: ModeRoute): GenerationMode {
  return route.startsWith('detect:') ? 'detect' : (route as GenerationMode);
}

/** The built-in engine a route defaults to. */
export function builtInEngineOf(route: ModeRoute): BuiltInEngine {
  if (route.startsWith('detect:'))
    return DETECT_MODALITY_ENGINES[route.slice('detect:'.length) as DetectModality];
  return MODE_TABLE[route as GenerationMode].engine;
}

/** The asset type of an output of `mode` whose engine names none; result-field and unknown modes: `unknown`. */
export function outputAssetType(mode: string): string {
  return (isGenerationMode(mode) ? MODE_TABLE[mode].outputs[0] : undefined) ?? 'unknown';
}

/** Modes answered with result fields in the job's `output`, no asset. */
export function isResultMode(mode: string): boolean {
  return isGenerationMode(mode) && MODE_TABLE[mode].outputs.length === 0;
}

/** The mode a job type names, for jobs without `input.generationMode` (`inference` names fourteen: none). */
export function modeOfJobType(jobType: JobType): GenerationMode | undefined {
  const modes = MODES.filter((m) => MODE_TABLE[m].jobType === jobType);
  return modes.length === 1 ? modes[0] : undefined;
}
