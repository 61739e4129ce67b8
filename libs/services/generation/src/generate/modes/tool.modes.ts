import {
  GenerativeFillBody,
  PROMPT_EDITING_DEFAULT_MODEL,
  PromptEditingBody,
  ReframeBody,
  RestyleBody,
  TextureBody,
} from '../dto/image-edits.dto';
import {
  DetectBody,
  PatchBody,
  PixelateBody,
  RemoveBackgroundBody,
  SegmentBody,
  VectorizeBody,
} from '../dto/image-tools.dto';
import { CaptionBody, DescribeStyleBody, EmbedBody, PromptBody, TranslateBody } from '../dto/text.dto';
import { SkyboxBase360Body, SkyboxUpscale360Body, UpscaleBody } from '../dto/upscale-skybox.dto';
import type { ModeEntry } from './mode-definition';

/** Image tools, image edits, skyboxes and language-model modes (everything but model inference). */
export const TOOL_MODES: readonly ModeEntry[] = [
  // job + asset + billing
  {
    name: 'detect',
    summary: 'Transform an input image into a mode map (detection map)',
    body: DetectBody,
    response: 'job-asset',
    originalAssets: true,
    output: { from: 'image', mimeType: 'image/png' },
  },
  {
    name: 'patch',
    summary: 'Patch an asset with an image',
    body: PatchBody,
    response: 'job-asset',
    originalAssets: true,
    output: { from: 'image', mimeType: 'image/png' },
  },
  {
    name: 'pixelate',
    summary: 'Pixelization of an image',
    body: PixelateBody,
    response: 'job-asset',
    originalAssets: true,
    output: { from: 'image', mimeType: 'image/png' },
  },
  {
    name: 'remove-background',
    summary: 'Deprecated: remove the background of an image; use the custom-model endpoint instead',
    body: RemoveBackgroundBody,
    response: 'job-asset',
    deprecated: true,
    originalAssets: true,
    output: { from: 'image', mimeType: 'image/png' },
  },
  {
    // Not in the spec's table ("paths after /generate/upscale: not shown"); from the upstream reference.
    name: 'vectorize',
    summary: 'Vectorize an image into SVG',
    body: VectorizeBody,
    response: 'job-asset',
    originalAssets: true,
    output: { from: 'image', mimeType: 'image/svg+xml' },
  },
  // job + billing
  {
    name: 'generative-fill',
    summary: 'Replace the masked area based on context (erase objects)',
    body: GenerativeFillBody,
    response: 'job',
    originalAssets: true,
    oneOf: [['mask', 'maskId']],
  },
  {
    name: 'prompt-editing',
    summary: 'Deprecated: edit an image with a prompt; use the custom-model endpoint instead',
    body: PromptEditingBody,
    response: 'job',
    deprecated: true,
    originalAssets: true,
    runsModel: true,
    defaultModelId: PROMPT_EDITING_DEFAULT_MODEL,
  },
  {
    name: 'reframe',
    summary: 'Reframe an image to new sizes, filling extra space from context',
    body: ReframeBody,
    response: 'job',
    originalAssets: true,
  },
  {
    name: 'restyle',
    summary: 'Restyle from one sketch or other image and one or more style reference images',
    body: RestyleBody,
    response: 'job',
    originalAssets: true,
  },
  {
    name: 'skybox-base-360',
    summary: 'Seamless 360 skybox image',
    body: SkyboxBase360Body,
    response: 'job',
    originalAssets: true,
  },
  {
    name: 'skybox-upscale-360',
    summary: 'Upscale matching 360 skybox geometry',
    body: SkyboxUpscale360Body,
    response: 'job',
    originalAssets: true,
  },
  {
    name: 'texture',
    summary:
      'Convert a texture image into height, normal, smoothness, metallic, edge and ambient occlusion maps',
    body: TextureBody,
    response: 'job',
    originalAssets: true,
  },
  {
    // The spec lists no response for upscale; the upstream reference answers job + billing.
    name: 'upscale',
    summary: 'Deprecated: upscale an image; use the custom-model endpoint instead',
    body: UpscaleBody,
    response: 'job',
    deprecated: true,
    originalAssets: true,
  },
  // their own bodies
  {
    name: 'segment',
    summary: 'Segment an image; the mask becomes a child asset',
    body: SegmentBody,
    response: 'segment',
    originalAssets: true,
  },
  {
    name: 'caption',
    summary: 'Caption image(s)',
    body: CaptionBody,
    response: 'caption',
    originalAssets: false,
  },
  {
    name: 'describe-style',
    summary: 'Describe the style of given images or models',
    body: DescribeStyleBody,
    response: 'describe-style',
    originalAssets: false,
    oneOf: [['images', 'assetIds', 'modelId']],
  },
  {
    name: 'embed',
    summary: 'Embeddings from text',
    body: EmbedBody,
    response: 'embed',
    originalAssets: true,
  },
  {
    name: 'prompt',
    summary: 'Generate, complete or invent prompts',
    body: PromptBody,
    response: 'prompt',
    originalAssets: false,
    rules: (body) =>
      body.mode === 'image-editing' && (body.image === undefined || body.image === null)
        ? [{ field: 'image', messages: ['image is required when mode is image-editing'] }]
        : [],
  },
  {
    name: 'translate',
    summary: 'Translate text from one language to English',
    body: TranslateBody,
    response: 'translate',
    originalAssets: false,
  },
];
