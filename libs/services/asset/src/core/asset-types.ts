/** The asset `type` values the spec lists ("Asset types"): the only values the list filters accept. */
export const ASSET_TYPES = [
  '3d-texture',
  '3d-texture-albedo',
  '3d-texture-metallic',
  '3d-texture-mtl',
  '3d-texture-normal',
  '3d-texture-roughness',
  '3d23d',
  '3d23d-texture',
  'audio2audio',
  'background-removal',
  'canvas',
  'canvas-drawing',
  'canvas-export',
  'detection',
  'generative-fill',
  'image-prompt-editing',
  'img23d',
  'img2img',
  'img2video',
  'inference-controlnet',
  'inference-controlnet-img2img',
  'inference-controlnet-inpaint',
  'inference-controlnet-inpaint-ip-adapter',
  'inference-controlnet-ip-adapter',
  'inference-controlnet-reference',
  'inference-controlnet-texture',
  'inference-img2img',
  'inference-img2img-ip-adapter',
  'inference-img2img-texture',
  'inference-inpaint',
  'inference-inpaint-ip-adapter',
  'inference-reference',
  'inference-reference-texture',
  'inference-txt2img',
  'inference-txt2img-ip-adapter',
  'inference-txt2img-texture',
  'patch',
  'pixelization',
  'reframe',
  'restyle',
  'segment',
  'segmentation-image',
  'segmentation-mask',
  'skybox-3d',
  'skybox-base-360',
  'skybox-hdri',
  'texture',
  'texture-albedo',
  'texture-ao',
  'texture-edge',
  'texture-height',
  'texture-metallic',
  'texture-normal',
  'texture-smoothness',
  'txt23d',
  'txt2audio',
  'txt2img',
  'txt2video',
  'unknown',
  'uploaded',
  'uploaded-3d',
  'uploaded-audio',
  'uploaded-avatar',
  'uploaded-video',
  'upscale',
  'upscale-skybox',
  'upscale-texture',
  'upscale-video',
  'vectorization',
  'video2img',
  'video2video',
] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

const TYPE_SET: ReadonlySet<string> = new Set(ASSET_TYPES);
export function isAssetType(value: string): value is AssetType {
  return TYPE_SET.has(value);
}

export const ASSET_KINDS = ['3d', 'audio', 'document', 'image', 'image-hdr', 'json', 'video'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

export const ASSET_STATUSES = ['error', 'pending', 'success'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

/**
 * `source` is the upstream spelling of the type (`inference-txt` for
 * `inference-txt2img`, `texture:albedo` for `texture-albedo`). Types the
 * upstream `source` enum lacks (3d-texture*, video2img) use their type value.
 */
const SOURCE_SPELLING: Readonly<Record<string, string>> = {
  '3d23d-texture': '3d23d:texture',
  'inference-controlnet': 'inference-control-net',
  'inference-controlnet-img2img': 'inference-control-net-img',
  'inference-controlnet-inpaint': 'inference-control-net-inpainting',
  'inference-controlnet-inpaint-ip-adapter': 'inference-control-net-inpainting-ip-adapter',
  'inference-controlnet-ip-adapter': 'inference-control-net-ip-adapter',
  'inference-controlnet-reference': 'inference-control-net-reference',
  'inference-controlnet-texture': 'inference-control-net-texture',
  'inference-img2img': 'inference-img',
  'inference-img2img-ip-adapter': 'inference-img-ip-adapter',
  'inference-img2img-texture': 'inference-img-texture',
  'inference-inpaint': 'inference-in-paint',
  'inference-inpaint-ip-adapter': 'inference-in-paint-ip-adapter',
  'inference-txt2img': 'inference-txt',
  'inference-txt2img-ip-adapter': 'inference-txt-ip-adapter',
  'inference-txt2img-texture': 'inference-txt-texture',
  'texture-albedo': 'texture:albedo',
  'texture-ao': 'texture:ao',
  'texture-edge': 'texture:edge',
  'texture-height': 'texture:height',
  'texture-metallic': 'texture:metallic',
  'texture-normal': 'texture:normal',
  'texture-smoothness': 'texture:smoothness',
};

export function sourceOf(type: string): string {
  return SOURCE_SPELLING[type] ?? type;
}

export const EDIT_CAPABILITIES = [
  'DETECTION',
  'GENERATIVE_FILL',
  'PIXELATE',
  'PROMPT_EDITING',
  'REFINE',
  'REFRAME',
  'REMOVE_BACKGROUND',
  'SEGMENTATION',
  'UPSCALE',
  'UPSCALE_360',
  'VECTORIZATION',
] as const;

const IMAGE_EDITS = EDIT_CAPABILITIES.filter((c) => c !== 'UPSCALE_360');
/** Maps (detection, masks) are inputs to other modes, not pictures to edit further. */
const MAP_TYPES = new Set(['detection', 'segmentation-mask']);

/**
 * The edit modes that accept this asset as their input image: every image
 * mode for pictures, plus the 360° upscale for skyboxes; none for maps,
 * canvases and non-image kinds.
 */
export function editCapabilitiesOf(kind: string, type: string): string[] {
  if (kind !== 'image' || MAP_TYPES.has(type)) return [];
  return type.startsWith('skybox-') ? [...IMAGE_EDITS, 'UPSCALE_360'] : [...IMAGE_EDITS];
}
