import { SKYBOX_STYLES, type ModeBody } from '@genasset/contracts';
import {
  BoolField,
  EnumField,
  ImageField,
  ImageListField,
  NumberField,
  SeedField,
  TextField,
} from './fields';

// Upscale and skybox bodies (upstream PostUpscale…, PostSkyboxBase360…, PostSkyboxUpscale360…).

/** What upscale and skybox upscale share; upstream names the style images' influence differently on each. */
class UpscaleCommon {
  @TextField({ description: 'A prompt to guide the upscale' })
  prompt?: string;

  @TextField({ description: 'A negative prompt' })
  negativePrompt?: string;

  @ImageListField('asset', { description: 'Style images, as asset ids' })
  styleImages?: string[];

  @NumberField({ min: 0, max: 100, description: 'Fidelity to the prompt' })
  promptFidelity?: number;

  @NumberField({ min: -50, max: 50, description: 'Amount of details to remove or add' })
  detailsLevel?: number;

  @NumberField({
    int: true,
    min: 1024,
    max: 16000,
    description: 'Target width; takes priority over scalingFactor',
  })
  targetWidth?: number;

  @BoolField({ description: 'Use only your prompt and negativePrompt, not the model’s embeddings' })
  overrideEmbeddings?: boolean;

  @SeedField()
  seed?: number;
}

export class UpscaleBody extends UpscaleCommon implements ModeBody<'upscale'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image to upscale: an asset id or a data URL',
  })
  image!: string;

  @NumberField({ min: 1, max: 16, description: 'Scaling factor (when targetWidth is not given)' })
  scalingFactor?: number;

  @NumberField({ min: 0, max: 100, description: 'Influence of the style images' })
  styleImagesFidelity?: number;

  @EnumField(['balanced', 'creative', 'precise'], {
    default: 'balanced',
    description: 'Optimise for fidelity, creativity or a balance',
  })
  preset?: string;

  @EnumField(['3d-rendered', 'anime', 'cartoon', 'comic', 'minimalist', 'photography', 'standard'], {
    default: 'standard',
    description: 'Style to optimise for',
  })
  style?: string;

  @EnumField(['seamfull', 'skybox', 'texture'], {
    default: 'seamfull',
    description: 'Preserve the seamless properties of skyboxes or textures',
  })
  imageType?: string;

  @NumberField({ min: 0, max: 100, description: 'Allowed hallucinations' })
  creativity?: number;

  @NumberField({ min: 0, max: 100, description: 'Decay of creativity over the process' })
  creativityDecay?: number;

  @NumberField({ min: 0, max: 100, description: 'Similarity to the original image' })
  imageFidelity?: number;

  @NumberField({ min: 0, max: 100, description: 'Scale the upscale works at' })
  fractality?: number;

  @NumberField({ int: true, min: 0, max: 4, description: 'Additional refinement steps before scaling' })
  refinementSteps?: number;

  @BoolField({ default: false, description: 'Match tiles of the source with tiles of the style images' })
  tileStyle?: boolean;
}

export class SkyboxUpscale360Body extends UpscaleCommon implements ModeBody<'skybox-upscale-360'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The 360 image to upscale: an asset id or a data URL',
  })
  image!: string;

  @NumberField({ min: 1, max: 8, description: 'Scaling factor (when targetWidth is not given)' })
  scalingFactor?: number;

  @NumberField({ min: 0, max: 100, description: 'Influence of the style images (default 80)' })
  styleFidelity?: number;

  @BoolField({ default: false, description: 'Sharpen tiles' })
  sharpen?: boolean;

  @BoolField({ default: true, description: 'Keep the colour histogram of each tile' })
  colorCorrection?: boolean;
}

export class SkyboxBase360Body implements ModeBody<'skybox-base-360'> {
  @TextField({
    required: true,
    allowEmpty: true,
    description: 'A prompt to guide the skybox generation',
    example: 'a mountain landscape',
  })
  prompt!: string;

  @TextField({ description: 'A negative prompt' })
  negativePrompt?: string;

  @NumberField({
    min: 0,
    max: 10,
    description: 'Influence of the negative prompt; must be > 0 for it to act',
  })
  negativePromptStrength?: number;

  @ImageField('asset-or-data-url', { description: 'A starting image: an asset id or a data URL' })
  image?: string;

  @ImageField('asset', { description: 'Control image for structure (canny applied), as an asset id' })
  structureImage?: string;

  @ImageField('asset', { description: 'Control image already processed by canny, as an asset id' })
  cannyStructureImage?: string;

  @ImageField('asset', { description: 'Control image for the depth estimator, as an asset id' })
  depthImage?: string;

  @ImageListField('asset', { deprecated: true, description: 'Deprecated: style images, as asset ids' })
  styleImages?: string[];

  @NumberField({
    min: 0,
    max: 100,
    deprecated: true,
    description: 'Deprecated: influence of the style image',
  })
  styleFidelity?: number;

  @NumberField({ min: 0, max: 100, description: 'Structure fidelity when a structure image is given' })
  structureFidelity?: number;

  @NumberField({ min: 0, max: 100, description: 'Depth fidelity when a depth image is given' })
  depthFidelity?: number;

  @NumberField({ min: 0, max: 100, description: 'Fidelity to the prompt' })
  promptFidelity?: number;

  @NumberField({ min: 0, max: 100, description: 'Extra control of the 360 geometry' })
  geometryEnforcement?: number;

  @NumberField({ min: 0.01, max: 1, default: 0.75, description: 'Noise introduced to the starting image' })
  strength?: number;

  @NumberField({ int: true, min: 1, max: 8, description: 'Number of outputs' })
  numOutputs?: number;

  @NumberField({ int: true, min: 20, max: 50, description: 'Denoising steps' })
  numInferenceSteps?: number;

  @NumberField({ int: true, min: 1024, max: 2048, description: 'Width of the rendered image' })
  width?: number;

  @EnumField(SKYBOX_STYLES, { default: 'standard', description: 'Style to apply' })
  style?: string;

  @BoolField({ deprecated: true, description: 'Deprecated: use only your prompt and negativePrompt' })
  overrideEmbeddings?: boolean;

  @SeedField()
  seed?: number;
}
