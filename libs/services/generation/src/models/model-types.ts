/** Upstream model types (GET /models/{modelId} → model.type). */
export const MODEL_TYPES = [
  'custom',
  'flux.1',
  'flux.1-composition',
  'flux.1-kontext-dev',
  'flux.1-kontext-lora',
  'flux.1-krea-dev',
  'flux.1-krea-lora',
  'flux.1-lora',
  'flux.1-pro',
  'flux.1.1-pro-ultra',
  'flux1.1-pro',
  'gpt-image-1',
  'sd-1_5',
  'sd-1_5-composition',
  'sd-1_5-lora',
  'sd-xl',
  'sd-xl-composition',
  'sd-xl-lora',
] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

/**
 * The legacy base-model families: generated with `POST /generate/{inferenceType}`
 * (txt2img, img2img…), not with `/generate/custom/{modelId}` (spec: Generation).
 * Every other type is a custom model (`custom: true` upstream).
 */
export const LEGACY_MODEL_TYPES: readonly ModelType[] = [
  'flux.1',
  'flux.1-composition',
  'flux.1-lora',
  'sd-1_5',
  'sd-1_5-composition',
  'sd-1_5-lora',
  'sd-xl',
  'sd-xl-composition',
  'sd-xl-lora',
];

export const isLegacyType = (type: string) => (LEGACY_MODEL_TYPES as readonly string[]).includes(type);

export const MODEL_STATUSES = ['new', 'training', 'trained', 'failed', 'training-canceled'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

export const MODEL_PRIVACIES = ['private', 'public', 'unlisted'] as const;
export type ModelPrivacy = (typeof MODEL_PRIVACIES)[number];

/** Upstream capability names. */
export const MODEL_CAPABILITIES = [
  '3d23d',
  'audio2audio',
  'controlnet',
  'controlnet_img2img',
  'controlnet_inpaint',
  'controlnet_inpaint_ip_adapter',
  'controlnet_ip_adapter',
  'controlnet_reference',
  'controlnet_texture',
  'img23d',
  'img2img',
  'img2img_ip_adapter',
  'img2img_texture',
  'img2video',
  'inpaint',
  'inpaint_ip_adapter',
  'outpaint',
  'reference',
  'reference_texture',
  'txt23d',
  'txt2audio',
  'txt2img',
  'txt2img_ip_adapter',
  'txt2img_texture',
  'txt2video',
  'video2video',
] as const;

/** Capabilities a model gets when its creator names none: what every image model here can do. */
export const DEFAULT_CAPABILITIES = ['txt2img', 'img2img'];

/** Statuses from which PUT /train may start a (new) training. */
export const TRAINABLE_STATUSES: readonly ModelStatus[] = ['new', 'failed', 'training-canceled', 'trained'];

export const MODEL_LIMITS = {
  /** GET /v1/models: upstream "default 100, maximum 500, minimum 1". */
  pageSize: { default: 100, min: 1, max: 500 },
  trainingImages: 100,
  /** Training images shown in a list item (upstream: "the first 3"). */
  listTrainingImages: 3,
  tags: 50,
  /** POST /v1/models/get-bulk: model ids per request. */
  bulk: 100,
  inputs: 64,
} as const;

export const MODEL_ID = /^model_[0-9A-Za-z]{1,64}$/;
export const ASSET_ID = /^asset_[0-9A-Za-z]{1,64}$/;

/** Model types trained on image pairs (source → target with an instruction): instruction-editing models. */
export const PAIRED_MODEL_TYPES: readonly string[] = ['flux.1-kontext-lora', 'flux.1-kontext-dev'];
