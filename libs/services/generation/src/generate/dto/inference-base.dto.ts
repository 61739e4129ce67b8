import { ASPECT_RATIOS, SCHEDULERS, type ModeBody } from '@genasset/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ConceptDto } from './concept.dto';
import { BoolField, EnumField, IdField, NestedField, NumberField, TextField } from './fields';
import { IsMultipleOf, IsSeed } from './validators';

/**
 * The fields every model inference mode shares (upstream PostTxt2imgInferencesRequest
 * minus aspectRatio). Model-family rules (SDXL sizes, Flux guidance ranges) need the
 * model and are checked when the model registry exists.
 */
export class InferenceBody {
  @IdField({
    required: true,
    description: 'The model id to use for the inference',
    example: 'model_eyVcnFJcR92BxBkz7N6g5w',
  })
  modelId!: string;

  @IdField({
    description:
      "A preset of the model (GET /v1/models/{modelId}/presets): its parameters fill every field the body does not give; the body's win",
    example: 'preset_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A',
  })
  presetId?: string;

  @TextField({
    required: true,
    description: 'Full text prompt including the model placeholder',
    example: 'an illustration of a phoenix flying over a mountain',
  })
  prompt!: string;

  @TextField({ description: 'The prompt not to guide the image generation, ignored when guidance < 1' })
  negativePrompt?: string;

  @NumberField({
    min: 0,
    max: 10,
    description:
      'Influence of the negative prompt (flux-dev based models); must be > 0 for negativePrompt to act',
  })
  negativePromptStrength?: number;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', pattern: '^\\d{1,10}$' }, { type: 'integer' }],
    description: 'Used to reproduce previous results (0 to 2147483647). Default: random',
  })
  @IsOptional()
  @IsSeed({ allowString: true })
  seed?: string | number;

  @IdField({ description: 'The epoch of the model to use. Only available for Flux LoRA trained models' })
  modelEpoch?: string;

  @IdField({
    description: 'The base model to use (Flux LoRA models only; one of the model’s compliantModelIds)',
  })
  baseModelId?: string;

  @BoolField({
    default: false,
    description: 'Hide the generated assets from the inference’s images and from asset lists',
  })
  hideResults?: boolean;

  @EnumField(SCHEDULERS, { description: 'Overrides the scheduler configured for the model' })
  scheduler?: string;

  @BoolField({ default: false, description: 'Enable intermediate images generation' })
  intermediateImages?: boolean;

  @NestedField(() => ConceptDto, {
    list: true,
    maxItems: 16,
    description: 'LoRA or composition models applied to the generation',
  })
  concepts?: ConceptDto[];

  @NumberField({
    min: 0,
    max: 20,
    description: 'How closely the images follow the prompt (allowed range depends on the model type)',
  })
  guidance?: number;

  @NumberField({ int: true, min: 1, max: 150, default: 30, description: 'Denoising steps for each image' })
  numInferenceSteps?: number;

  @NumberField({ int: true, min: 1, max: 128, default: 4, description: 'Number of images to generate' })
  numSamples?: number;

  @NumberField({
    int: true,
    min: 64,
    max: 2048,
    default: 512,
    description: 'Width of the generated images; a multiple of 8',
  })
  @IsMultipleOf(8)
  width?: number;

  @NumberField({
    int: true,
    min: 64,
    max: 2048,
    default: 512,
    description: 'Height of the generated images; a multiple of 8',
  })
  @IsMultipleOf(8)
  height?: number;
}

/** `aspectRatio` exists only on txt2img and txt2img-ip-adapter (flux.1.1-pro-ultra). */
export class Txt2ImgBody extends InferenceBody implements ModeBody<'txt2img'> {
  @EnumField(ASPECT_RATIOS, {
    default: '1:1',
    description: 'Aspect ratio "width:height"; only used by flux.1.1-pro-ultra',
  })
  aspectRatio?: string;
}
