import { GENERATION_MODE_GROUPS, GENERATION_MODES, type JobType } from '@genasset/contracts';
import { str } from './image/params';

/** Detection modalities that need a model (depth estimation, pose, line segments). */
export const MODEL_MODALITIES = ['depth', 'mlsd', 'pose'] as const;

/** Asset type of a mode's outputs (texture makes six types: texture-height…; segment may add segmentation-image). */
const OUTPUT_TYPES: Readonly<Record<string, string>> = {
  detect: 'detection',
  patch: 'patch',
  pixelate: 'pixelization',
  'remove-background': 'background-removal',
  vectorize: 'vectorization',
  'generative-fill': 'generative-fill',
  'prompt-editing': 'image-prompt-editing',
  reframe: 'reframe',
  restyle: 'restyle',
  'skybox-base-360': 'skybox-base-360',
  'skybox-upscale-360': 'upscale-skybox',
  texture: 'texture',
  upscale: 'upscale',
  segment: 'segmentation-mask',
  custom: 'txt2img',
};

/** The asset type an output of `mode` gets when the engine names none. */
export function outputAssetType(mode: string): string {
  if (OUTPUT_TYPES[mode]) return OUTPUT_TYPES[mode];
  return (GENERATION_MODE_GROUPS.inference as readonly string[]).includes(mode)
    ? `inference-${mode}`
    : 'unknown';
}

/** The route of model-training jobs: the image engine's built-in trainer, or an http trainer (docs/models.md). */
export const TRAINING_ROUTE = 'model-training';
/** Model exports: not an engine choice, the worker packs the files itself. */
export const EXPORT_ROUTE = 'model-download';

/** Modes answered with text fields (captions, embedding…), no asset. */
export const TEXT_MODES: readonly string[] = GENERATION_MODE_GROUPS.text;

export function isGenerationMode(mode: string): boolean {
  return (GENERATION_MODES as readonly string[]).includes(mode);
}

/** Every route a configuration may name: each mode, and detect:<modality>. */
export function knownRoute(route: string): boolean {
  if (route === TRAINING_ROUTE) return true;
  const [mode, variant] = route.split(':');
  if (variant === undefined) return isGenerationMode(mode);
  return mode === 'detect' && variant !== '';
}

/**
 * The route an engine is chosen by: the mode, refined by the detect modality
 * (`detect:canny` runs in the image engine, `detect:depth` needs a model).
 */
export function routeOf(mode: string, input: Record<string, unknown>): string {
  return mode === 'detect' ? `detect:${str(input.modality) ?? 'canny'}` : mode;
}

/** Modes whose job type names them, for jobs created without `input.generationMode`. */
const MODE_OF_JOB_TYPE: Partial<Record<JobType, string>> = {
  caption: 'caption',
  custom: 'custom',
  'describe-style': 'describe-style',
  detection: 'detect',
  embed: 'embed',
  'generate-prompt': 'prompt',
  'image-prompt-editing': 'prompt-editing',
  'patch-image': 'patch',
  pixelate: 'pixelate',
  reframe: 'reframe',
  'remove-background': 'remove-background',
  repaint: 'generative-fill',
  restyle: 'restyle',
  segment: 'segment',
  'skybox-base-360': 'skybox-base-360',
  'skybox-upscale-360': 'skybox-upscale-360',
  texture: 'texture',
  translate: 'translate',
  upscale: 'upscale',
  vectorize: 'vectorize',
};

/**
 * The generation mode of a job: `input.generationMode` (what the generate
 * routes record), else the one its job type names; inference jobs without it
 * fall back on the upstream `type` spelling (txt2img_ip_adapter). Undefined
 * when nothing says.
 */
export function modeOf(jobType: JobType, input: Record<string, unknown>): string | undefined {
  const declared = str(input.generationMode);
  if (declared) return declared;
  if (jobType === 'inference') {
    const type = str(input.type)?.replace(/_/g, '-');
    return type && isGenerationMode(type) ? type : undefined;
  }
  return MODE_OF_JOB_TYPE[jobType];
}
