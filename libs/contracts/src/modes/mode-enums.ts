// The value lists of the generate request fields, written once: the mode table
// (inference-mode-fields.ts, tool-mode-fields.ts) and the routes' body classes
// (libs/services/generation/src/generate/dto) both take them from here.

export const SCHEDULERS = [
  'DDIMScheduler',
  'DDPMScheduler',
  'DEISMultistepScheduler',
  'DPMSolverMultistepScheduler',
  'DPMSolverSinglestepScheduler',
  'EulerAncestralDiscreteScheduler',
  'EulerDiscreteScheduler',
  'HeunDiscreteScheduler',
  'KDPM2AncestralDiscreteScheduler',
  'KDPM2DiscreteScheduler',
  'LCMScheduler',
  'LMSDiscreteScheduler',
  'PNDMScheduler',
  'TCDScheduler',
  'UniPCMultistepScheduler',
] as const;

/** txt2img's `aspectRatio` (flux.1.1-pro-ultra); reframe adds `auto`. */
export const ASPECT_RATIOS = ['16:9', '1:1', '21:9', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '9:21'] as const;

export const PROMPT_MODES = ['completion', 'contextual', 'image-editing', 'inventive', 'structured'] as const;

export const PROMPT_EDITING_MODELS = [
  'flux-kontext',
  'gemini-2.0-flash',
  'gemini-2.5-flash',
  'gpt-image-1',
  'runway-gen4-image',
  'seedream-4',
] as const;

export const SKYBOX_STYLES = [
  '3d-cartoon',
  'cartoon',
  'cinematic',
  'claymation',
  'cloud-skydome',
  'comic',
  'cyberpunk',
  'enchanted',
  'fantasy',
  'ink',
  'manga',
  'manga-color',
  'neon-tron',
  'oil-painting',
  'pastel',
  'photo',
  'psychedelic',
  'retro-fantasy',
  'scifi-concept-art',
  'space',
  'standard',
  'whimsical',
] as const;
