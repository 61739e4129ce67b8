import type { JobType } from '@genasset/contracts';

/** Upstream's `usageName` values a job type counts under (GetUsagesResponse.usages[].usageName). */
export const USAGE_NAMES = [
  'background-removal',
  'captioning',
  'creative-unit-cost',
  'custom',
  'detection',
  'image-prompt-editing',
  'images-generation',
  'models-training',
  'patch',
  'pixelate',
  'repaint',
  'restyle',
  'segmentation',
  'skybox-base-360',
  'skybox-upscale-360',
  'texture',
  'upscale',
  'vectorization',
] as const;
export type UsageName = (typeof USAGE_NAMES)[number];

/**
 * Each job type's upstream usage series (absent: it has none; its units still
 * count in `creative-unit-cost`) and its activity `action`.
 */
export const JOB_TYPE_USAGE: Record<JobType, { usage?: UsageName; action: string }> = {
  'assets-download': { action: 'download-assets' },
  'canvas-export': { action: 'download-assets' },
  caption: { usage: 'captioning', action: 'captioning' },
  'caption-llava': { usage: 'captioning', action: 'captioning' },
  custom: { usage: 'custom', action: 'custom' },
  'describe-style': { action: 'describe-style' },
  detection: { usage: 'detection', action: 'detection' },
  embed: { action: 'embed' },
  flux: { usage: 'images-generation', action: 'images-generation' },
  'flux-model-training': { usage: 'models-training', action: 'models-training' },
  'generate-prompt': { action: 'creative-unit-cost' },
  'image-generation': { usage: 'images-generation', action: 'images-generation' },
  'image-prompt-editing': { usage: 'image-prompt-editing', action: 'image-prompt-editing' },
  inference: { usage: 'images-generation', action: 'inference' },
  'model-download': { action: 'download-model' },
  'model-import': { action: 'model' },
  'model-training': { usage: 'models-training', action: 'models-training' },
  'openai-image-generation': { usage: 'images-generation', action: 'images-generation' },
  'patch-image': { usage: 'patch', action: 'patch' },
  pixelate: { usage: 'pixelate', action: 'pixelate' },
  reframe: { action: 'reframe' },
  'remove-background': { usage: 'background-removal', action: 'background-removal' },
  repaint: { usage: 'repaint', action: 'repaint' },
  restyle: { usage: 'restyle', action: 'restyle' },
  segment: { usage: 'segmentation', action: 'segmentation' },
  'skybox-3d': { action: 'creative-unit-cost' },
  'skybox-base-360': { usage: 'skybox-base-360', action: 'skybox-base-360' },
  'skybox-hdri': { action: 'creative-unit-cost' },
  'skybox-upscale-360': { usage: 'skybox-upscale-360', action: 'skybox-upscale-360' },
  texture: { usage: 'texture', action: 'texture' },
  translate: { action: 'creative-unit-cost' },
  upload: { action: 'asset' },
  upscale: { usage: 'upscale', action: 'upscale' },
  'upscale-skybox': { usage: 'skybox-upscale-360', action: 'skybox-upscale-360' },
  'upscale-texture': { usage: 'texture', action: 'texture' },
  vectorize: { usage: 'vectorization', action: 'vectorization' },
  workflow: { action: 'creative-unit-cost' },
};
