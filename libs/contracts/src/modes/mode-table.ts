import type { JobType } from '../events/job-lifecycle.events';
import type { FieldRules } from './field-rule';
import { INFERENCE_MODE_FIELDS } from './inference-mode-fields';
import { TOOL_MODE_FIELDS } from './tool-mode-fields';

/** The engines built into the worker that a route falls to when no backend or INFERENCE_ENGINES entry names one. */
export type BuiltInEngine = 'image' | 'text' | 'preview';
/** Backend types of INFERENCE_BACKENDS_FILE that make files (the http engine can serve any route). */
export type FileBackend = 'comfyui' | 'replicate' | 'cog';
/** The OpenAI-compatible API a route calls: images, chat with images, or embeddings. */
export type OpenaiCall = 'image' | 'chat' | 'embedding';
/** How a mode is priced (libs/contracts pricing): model inference, image operation, text. */
export type PricingGroup = 'inference' | 'image' | 'text';

/** What the product knows about one generation mode, for generation-service and the inference worker alike. */
export interface ModeSpec {
  group: PricingGroup;
  /** The job type a request of this mode creates. */
  jobType: JobType;
  /**
   * Asset types of its outputs; the first is what an output gets when its engine names none.
   * Empty: a result-field mode (its answer is in the job's `output`, no asset).
   */
  outputs: readonly string[];
  /** The built-in engine it defaults to (preview only where preview is on: docs/engines.md). */
  engine: BuiltInEngine;
  /** The backend types that can serve it besides http. */
  backends: readonly FileBackend[];
  /** The OpenAI-compatible call that serves it, if one does. */
  openai?: OpenaiCall;
  /** Its request fields and their rules. */
  fields: FieldRules;
}

const FILES: readonly FileBackend[] = ['comfyui', 'replicate', 'cog'];

function inference<M extends keyof typeof INFERENCE_MODE_FIELDS>(mode: M, openai?: OpenaiCall) {
  return {
    group: 'inference',
    jobType: 'inference',
    outputs: [`inference-${mode}`] as const,
    engine: 'preview',
    backends: FILES,
    ...(openai ? { openai } : {}),
    fields: INFERENCE_MODE_FIELDS[mode],
  } as const;
}

/**
 * Every `/v1/generate/{mode}` mode (and `custom`): its fields and rules, its job type, its output
 * asset types and the engines that can run it. The generate routes, pricing, the worker's engine
 * choice and docs/engines.md all read this table; a mode is added here or nowhere.
 */
export const MODE_TABLE = {
  txt2img: inference('txt2img', 'image'),
  'txt2img-ip-adapter': inference('txt2img-ip-adapter'),
  'txt2img-texture': inference('txt2img-texture'),
  img2img: inference('img2img'),
  'img2img-ip-adapter': inference('img2img-ip-adapter'),
  'img2img-texture': inference('img2img-texture'),
  inpaint: inference('inpaint', 'image'),
  'inpaint-ip-adapter': inference('inpaint-ip-adapter'),
  controlnet: inference('controlnet'),
  'controlnet-img2img': inference('controlnet-img2img'),
  'controlnet-inpaint': inference('controlnet-inpaint'),
  'controlnet-inpaint-ip-adapter': inference('controlnet-inpaint-ip-adapter'),
  'controlnet-ip-adapter': inference('controlnet-ip-adapter'),
  'controlnet-texture': inference('controlnet-texture'),
  custom: {
    group: 'inference',
    jobType: 'custom',
    outputs: ['txt2img'],
    engine: 'preview',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.custom,
  },
  'prompt-editing': {
    group: 'inference',
    jobType: 'image-prompt-editing',
    outputs: ['image-prompt-editing'],
    engine: 'preview',
    backends: FILES,
    openai: 'image',
    fields: TOOL_MODE_FIELDS['prompt-editing'],
  },
  'skybox-base-360': {
    group: 'inference',
    jobType: 'skybox-base-360',
    outputs: ['skybox-base-360'],
    engine: 'preview',
    backends: FILES,
    fields: TOOL_MODE_FIELDS['skybox-base-360'],
  },
  detect: {
    group: 'image',
    jobType: 'detection',
    outputs: ['detection'],
    // By modality: DETECT_MODALITY_ENGINES.
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.detect,
  },
  'generative-fill': {
    group: 'image',
    jobType: 'repaint',
    outputs: ['generative-fill'],
    engine: 'image',
    backends: FILES,
    openai: 'image',
    fields: TOOL_MODE_FIELDS['generative-fill'],
  },
  patch: {
    group: 'image',
    jobType: 'patch-image',
    outputs: ['patch'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.patch,
  },
  pixelate: {
    group: 'image',
    jobType: 'pixelate',
    outputs: ['pixelization'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.pixelate,
  },
  reframe: {
    group: 'image',
    jobType: 'reframe',
    outputs: ['reframe'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.reframe,
  },
  'remove-background': {
    group: 'image',
    jobType: 'remove-background',
    outputs: ['background-removal'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS['remove-background'],
  },
  restyle: {
    group: 'image',
    jobType: 'restyle',
    outputs: ['restyle'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.restyle,
  },
  segment: {
    group: 'image',
    jobType: 'segment',
    // segmentation-image too when the request asks for `resultImage`.
    outputs: ['segmentation-mask', 'segmentation-image'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.segment,
  },
  'skybox-upscale-360': {
    group: 'image',
    jobType: 'skybox-upscale-360',
    outputs: ['upscale-skybox'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS['skybox-upscale-360'],
  },
  texture: {
    group: 'image',
    jobType: 'texture',
    // `texture` for a server's answer that names no type; the image engine makes the six maps.
    outputs: [
      'texture',
      'texture-height',
      'texture-normal',
      'texture-smoothness',
      'texture-metallic',
      'texture-edge',
      'texture-ao',
    ],
    engine: 'image',
    // Six typed maps from one request: only the http contract can answer that.
    backends: [],
    fields: TOOL_MODE_FIELDS.texture,
  },
  upscale: {
    group: 'image',
    jobType: 'upscale',
    // By `imageType`: texture and skybox upscales get their own types.
    outputs: ['upscale', 'upscale-texture', 'upscale-skybox'],
    engine: 'image',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.upscale,
  },
  vectorize: {
    group: 'image',
    jobType: 'vectorize',
    outputs: ['vectorization'],
    engine: 'preview',
    backends: FILES,
    fields: TOOL_MODE_FIELDS.vectorize,
  },
  // Result-field modes: comfyui, replicate and cog answer with files, so openai or http only.
  caption: {
    group: 'text',
    jobType: 'caption',
    outputs: [],
    engine: 'text',
    backends: [],
    openai: 'chat',
    fields: TOOL_MODE_FIELDS.caption,
  },
  'describe-style': {
    group: 'text',
    jobType: 'describe-style',
    outputs: [],
    engine: 'text',
    backends: [],
    openai: 'chat',
    fields: TOOL_MODE_FIELDS['describe-style'],
  },
  embed: {
    group: 'text',
    jobType: 'embed',
    outputs: [],
    engine: 'text',
    backends: [],
    openai: 'embedding',
    fields: TOOL_MODE_FIELDS.embed,
  },
  prompt: {
    group: 'text',
    jobType: 'generate-prompt',
    outputs: [],
    engine: 'text',
    backends: [],
    openai: 'chat',
    fields: TOOL_MODE_FIELDS.prompt,
  },
  translate: {
    group: 'text',
    jobType: 'translate',
    outputs: [],
    engine: 'preview',
    backends: [],
    openai: 'chat',
    fields: TOOL_MODE_FIELDS.translate,
  },
} as const satisfies Record<string, ModeSpec>;

export type GenerationMode = keyof typeof MODE_TABLE;

/** Every mode, in the table's order. */
export const MODES = Object.keys(MODE_TABLE) as GenerationMode[];

/** The detection modalities (`detect:<modality>` routes) and the built-in engine of each: classical ones are computed, the rest need a model. */
export const DETECT_MODALITY_ENGINES = {
  canny: 'image',
  depth: 'preview',
  grayscale: 'image',
  lineart_anime: 'image',
  mlsd: 'preview',
  normal: 'image',
  pose: 'preview',
  scribble: 'image',
  segmentation: 'image',
  sketch: 'image',
} as const satisfies Record<string, BuiltInEngine>;

export type DetectModality = keyof typeof DETECT_MODALITY_ENGINES;
export const DETECT_MODALITIES = Object.keys(DETECT_MODALITY_ENGINES) as DetectModality[];

export function isGenerationMode(mode: string): mode is GenerationMode {
  return Object.hasOwn(MODE_TABLE, mode);
}

export function modeSpec(mode: GenerationMode): ModeSpec {
  return MODE_TABLE[mode];
}
