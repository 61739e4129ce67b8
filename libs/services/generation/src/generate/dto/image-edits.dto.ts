import { PROMPT_EDITING_MODELS, type ModeBody } from '@genasset/contracts';
import { ConceptDto } from './concept.dto';
import {
  BoolField,
  EnumField,
  ImageField,
  ImageListField,
  NestedField,
  NumberField,
  SeedField,
  TextField,
} from './fields';

// Image edits answering job + billing: generative-fill, prompt-editing, reframe,
// restyle, texture, upscale. Upstream Post<Mode>InferencesRequest bodies.

export class GenerativeFillBody implements ModeBody<'generative-fill'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image whose masked area is refilled: an asset id or a data URL',
  })
  image!: string;

  @ImageField('data-url', { description: 'The mask as a data URL (white is refilled)' })
  mask?: string;

  @ImageField('asset', { description: 'The mask as an asset id; ignored when mask is given' })
  maskId?: string;

  @TextField({ description: 'A prompt to guide the repaint' })
  prompt?: string;

  @TextField({ description: 'A negative prompt' })
  negativePrompt?: string;

  @NumberField({ int: true, min: 0, max: 2048, description: 'The target width of the output image' })
  targetWidth?: number;

  @NumberField({ int: true, min: 0, max: 2048, description: 'The target height of the output image' })
  targetHeight?: number;

  @NumberField({ int: true, min: 5, max: 50, description: 'Denoising steps' })
  numInferenceSteps?: number;

  @NumberField({ min: 1, max: 15, description: 'Fidelity to the prompt' })
  promptFidelity?: number;

  @SeedField()
  seed?: number;
}

/** The model upstream runs when a prompt-editing body names none. */
export const PROMPT_EDITING_DEFAULT_MODEL = 'gemini-2.5-flash';

export class PromptEditingBody implements ModeBody<'prompt-editing'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image to edit: an asset id or a data URL',
  })
  image!: string;

  @TextField({ required: true, description: 'The prompt to edit the image with' })
  prompt!: string;

  @ImageListField('asset-or-data-url', {
    max: 5,
    description: 'Additional reference images (model-dependent maximum, at most 5)',
  })
  referenceImages?: string[];

  @ImageField('asset-or-data-url', {
    description: 'Mask of the area to edit (gpt-image-1 only): black is replaced',
  })
  mask?: string;

  @EnumField(PROMPT_EDITING_MODELS, {
    default: PROMPT_EDITING_DEFAULT_MODEL,
    description: 'The model to use',
  })
  modelId?: string;

  @EnumField(['16:9', '1:1', '21:9', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '9:21', 'auto'], {
    default: 'auto',
    description: 'Aspect ratio of the output (model-dependent)',
  })
  aspectRatio?: string;

  @EnumField(['jpeg', 'png', 'webp'], { default: 'png', description: 'Output format (gpt-image-1)' })
  format?: string;

  @EnumField(['high', 'low'], { default: 'low', description: 'Preserve input details (gpt-image-1)' })
  inputFidelity?: string;

  @EnumField(['high', 'low', 'medium'], { default: 'high', description: 'Output quality' })
  quality?: string;

  @NumberField({
    int: true,
    min: 0,
    max: 100,
    description: 'Compression level in percent (gpt-image-1 with webp or jpeg)',
  })
  compression?: number;

  @NumberField({
    int: true,
    min: 1,
    max: 128,
    description: 'Number of samples (maximum depends on the subscription tier)',
  })
  numSamples?: number;

  @NestedField(() => ConceptDto, {
    list: true,
    maxItems: 16,
    description: 'Flux Kontext LoRA styling the image',
  })
  concepts?: ConceptDto[];

  @NumberField({ min: 0, max: 20, description: 'Guidance scale (flux-kontext)' })
  guidanceScale?: number;

  @NumberField({ min: 0, max: 1, description: 'Strength (flux-kontext LoRA)' })
  strength?: number;

  @SeedField()
  seed?: number;
}

export class ReframeBody implements ModeBody<'reframe'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image to reframe: an asset id or a data URL',
  })
  image!: string;

  @NumberField({
    required: true,
    int: true,
    min: 0,
    max: 2048,
    description: 'The target width of the output image',
  })
  targetWidth!: number;

  @NumberField({
    required: true,
    int: true,
    min: 0,
    max: 2048,
    description: 'The target height of the output image',
  })
  targetHeight!: number;

  @EnumField(['bottom', 'left', 'middle', 'right', 'top'], {
    default: 'middle',
    description: 'Location of the input image in the output',
  })
  inputLocation?: string;

  @NumberField({ min: 0.1, max: 1, description: 'Size of the input image in the output, as a proportion' })
  resizeOption?: number;

  @NumberField({ min: 0, max: 0.5, description: 'Overlap percentage for the output image' })
  overlapPercentage?: number;

  @TextField({ description: 'A prompt to guide the repaint' })
  prompt?: string;

  @TextField({ deprecated: true, description: 'Deprecated: a negative prompt' })
  negativePrompt?: string;

  @NumberField({ min: 1, max: 2, deprecated: true, description: 'Deprecated: horizontal expansion ratio' })
  horizontalExpansionRatio?: number;

  @NumberField({ min: 1, max: 2, deprecated: true, description: 'Deprecated: vertical expansion ratio' })
  verticalExpansionRatio?: number;

  @NestedField(() => ConceptDto, {
    list: true,
    maxItems: 16,
    description: 'Flux LoRA or composition to style the image',
  })
  concepts?: ConceptDto[];

  @NumberField({ int: true, min: 5, max: 50, description: 'Denoising steps' })
  numInferenceSteps?: number;

  @NumberField({ min: 1, max: 15, description: 'Fidelity to the prompt' })
  promptFidelity?: number;

  @SeedField()
  seed?: number;
}

export class RestyleBody implements ModeBody<'restyle'> {
  @ImageField('asset-or-data-url', {
    required: true,
    description: 'The image to restyle: an asset id or a data URL',
  })
  image!: string;

  @ImageListField('asset', {
    required: true,
    min: 1,
    description: 'Style images, as asset ids (one is usually enough)',
  })
  styleImages!: string[];

  @TextField({ description: 'A prompt to guide the restyle' })
  prompt?: string;

  @NumberField({ min: 0, max: 100, description: 'Resemblance to the style images' })
  styleFidelity?: number;

  @NumberField({ min: 0, max: 100, description: 'Preservation of the input image structure' })
  structureFidelity?: number;

  @NumberField({ min: 0, max: 100, description: 'Fidelity to the prompt' })
  promptFidelity?: number;

  @NumberField({ min: 0, max: 1, description: 'End step for control' })
  controlEnd?: number;

  @NumberField({ int: true, min: 5, max: 50, description: 'Denoising steps' })
  numInferenceSteps?: number;

  @BoolField({ default: false, description: 'Activate clustering' })
  clustering?: boolean;

  @BoolField({ default: false, description: 'Sketch detection instead of canny' })
  sketch?: boolean;

  @SeedField()
  seed?: number;
}

export class TextureBody implements ModeBody<'texture'> {
  @ImageField('asset', { required: true, description: 'The asset id of the texture to convert into maps' })
  texture!: string;

  @BoolField({ default: false, description: 'Use the default parameters' })
  defaultParameters?: boolean;

  @NumberField({ min: 0, max: 1, description: 'Polish: 0 rough, 1 mirror' })
  polished?: number;

  @NumberField({ min: 0, max: 1, description: 'Angularity: 0 sphere, 1 mechanical object' })
  angular?: number;

  @NumberField({ min: 0, max: 1, description: 'Relief: 0 flat, 1 very rough rock' })
  raised?: number;

  @NumberField({ min: 0, max: 1, description: 'Shine: 0 matte, 1 diamond' })
  shiny?: number;

  @BoolField({ default: false, description: 'Invert the relief' })
  invert?: boolean;

  @BoolField({ default: true, description: 'Save a flipbook of the texture (not above 2048×2048 px)' })
  saveFlipbook?: boolean;
}
