/**
 * The JSON types the upstream reference gives an asset's `metadata` fields
 * (`GetAssetsByAssetIdResponse.asset.metadata`; `type` and `kind` are the
 * presenter's own). Engines keep what they like there (seed, size,
 * parameters; an http engine whatever its server sends), and one value of
 * another type made a whole `GET /v1/assets` page undecodable for a client
 * typed from upstream (a numeric `seed`). `asset-metadata.spec.ts` checks this
 * table against the committed upstream document.
 */
const STRING = [
  'aspectRatio', 'baseModelId', 'cannyStructureImage', 'colorMode', 'copiedAt', 'depthImage', 'image',
  'inferenceId', 'lockExpiresAt', 'mask', 'mode', 'modelId', 'name', 'negativePrompt', 'originalAssetId',
  'parentId', 'parentJobId', 'preset', 'prompt', 'rootParentId', 'scheduler', 'seed', 'sourceProjectId',
  'structureImage', 'text', 'texture',
];
const NUMBER = [
  'angular', 'backgroundOpacity', 'colorPrecision', 'controlEnd', 'cornerThreshold', 'creativity',
  'creativityDecay', 'depthFidelity', 'detailsLevel', 'dilate', 'factor', 'filterSpeckle', 'fractality',
  'geometryEnforcement', 'guidance', 'hdr', 'height', 'highThreshold', 'horizontalExpansionRatio',
  'imageFidelity', 'keypointThreshold', 'layerDifference', 'lengthThreshold', 'lowThreshold', 'maxIterations',
  'maxThreshold', 'minThreshold', 'nbMasks', 'negativePromptStrength', 'numInferenceSteps', 'numOutputs',
  'outputIndex', 'overlapPercentage', 'pathPrecision', 'polished', 'progressPercent', 'promptFidelity', 'raised',
  'refinementSteps', 'resizeOption', 'scalingFactor', 'shiny', 'size', 'spliceThreshold', 'strength',
  'structureFidelity', 'styleFidelity', 'styleImagesFidelity', 'targetHeight', 'targetWidth',
  'verticalExpansionRatio', 'width',
];
const BOOLEAN = [
  'betterQuality', 'clustering', 'colorCorrection', 'defaultParameters', 'halfMode', 'invert',
  'overrideEmbeddings', 'removeBackground', 'resultContours', 'resultImage', 'resultMask', 'saveFlipbook',
  'sharpen', 'sketch', 'tileStyle', 'trainingImage',
];
const ARRAY = ['bbox', 'concepts', 'contours', 'points'];
const STRING_ARRAY = ['referenceImages', 'styleImages'];
const OBJECT = ['thumbnail'];
const ENUMS: Record<string, readonly string[]> = {
  imageType: ['seamfull', 'skybox', 'texture'],
  inputFidelity: ['high', 'low'],
  inputLocation: ['bottom', 'left', 'middle', 'right', 'top'],
  modality: ['canny', 'depth', 'grayscale', 'lineart_anime', 'mlsd', 'normal', 'pose', 'scribble', 'segmentation', 'sketch'],
  modelType: [
    'custom', 'flux.1', 'flux.1-composition', 'flux.1-kontext-dev', 'flux.1-kontext-lora', 'flux.1-krea-dev',
    'flux.1-krea-lora', 'flux.1-lora', 'flux.1-pro', 'flux.1.1-pro-ultra', 'flux1.1-pro', 'gpt-image-1', 'sd-1_5',
    'sd-1_5-composition', 'sd-1_5-lora', 'sd-xl', 'sd-xl-composition', 'sd-xl-lora',
  ],
  style: [
    '3d-cartoon', '3d-rendered', 'anime', 'cartoon', 'cinematic', 'claymation', 'cloud-skydome', 'comic', 'cyberpunk',
    'enchanted', 'fantasy', 'ink', 'manga', 'manga-color', 'minimalist', 'neon-tron', 'oil-painting', 'pastel', 'photo',
    'photography', 'psychedelic', 'retro-fantasy', 'scifi-concept-art', 'space', 'standard', 'whimsical',
  ],
};

/** A value in the field's upstream type, or undefined when it has none. */
type Conform = (value: unknown) => unknown;

const asString: Conform = (v) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);
const asNumber: Conform = (v) => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};
const asBoolean: Conform = (v) => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined);
const asArray: Conform = (v) => (Array.isArray(v) ? v : undefined);
const asStringArray: Conform = (v) => (Array.isArray(v) && v.every((i) => typeof i === 'string') ? v : undefined);
const asObject: Conform = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined);
const oneOf =
  (values: readonly string[]): Conform =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? v : undefined;

/** Exported for the spec that compares it with the upstream document. */
export const UPSTREAM_METADATA_TYPES: ReadonlyMap<string, string> = new Map([
  ...STRING.map((k) => [k, 'string'] as const),
  ...NUMBER.map((k) => [k, 'number'] as const),
  ...BOOLEAN.map((k) => [k, 'boolean'] as const),
  ...ARRAY.map((k) => [k, 'array'] as const),
  ...STRING_ARRAY.map((k) => [k, 'array of string'] as const),
  ...OBJECT.map((k) => [k, 'object'] as const),
  ...Object.entries(ENUMS).map(([k, values]) => [k, `one of ${values.join(', ')}`] as const),
]);

const CONFORM = new Map<string, Conform>([
  ...STRING.map((k) => [k, asString] as const),
  ...NUMBER.map((k) => [k, asNumber] as const),
  ...BOOLEAN.map((k) => [k, asBoolean] as const),
  ...ARRAY.map((k) => [k, asArray] as const),
  ...STRING_ARRAY.map((k) => [k, asStringArray] as const),
  ...OBJECT.map((k) => [k, asObject] as const),
  ...Object.entries(ENUMS).map(([k, values]) => [k, oneOf(values)] as const),
]);

/**
 * The stored metadata as the API shows it: a field upstream types is given in
 * that type when it converts without loss (a numeric seed as its decimal
 * string, a numeric string as a number, "true"/"false" as booleans) and left
 * out of the answer when it cannot (the stored row keeps it). Fields upstream
 * does not know pass as they are (its schema is open).
 */
export function conformMetadata(stored: Record<string, unknown>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const key in stored) {
    const conform = CONFORM.get(key);
    const value = conform ? conform(stored[key]) : stored[key];
    if (value !== undefined) shown[key] = value;
  }
  return shown;
}
