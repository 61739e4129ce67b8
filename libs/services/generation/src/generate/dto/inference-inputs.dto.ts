import { ArrayMaxSize, IsArray, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BoolField, EnumField, ImageField, ImageListField, NumberField } from './fields';
import { IsModality } from './validators';
import { GENERATE_LIMITS } from '../limits';

// Input groups of the model inference modes, as mixins: each mode's body is
// InferenceBody plus the groups it takes (see inference-modes.dto.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctor<T = object> = new (...args: any[]) => T;

/** The reference image (img2img, inpainting, ControlNet). */
export function WithInputImage<B extends Ctor>(Base: B) {
  class InputImage extends Base {
    @ImageField('asset-or-data-url', {
      description: 'The input image as a data URL or an asset id of the project',
    })
    image?: string;

    @ImageField('asset', {
      deprecated: true,
      description: 'Deprecated: the input image as an asset id; prefer image',
    })
    imageId?: string;

    @ImageField('asset', { description: 'The parent asset of the image when it is given as a data URL' })
    imageParentId?: string;

    @BoolField({ default: false, description: 'Hide the image when it is given as a data URL' })
    imageHide?: boolean;
  }
  return InputImage;
}

export function WithStrength<B extends Ctor>(Base: B) {
  class Strength extends Base {
    @NumberField({
      min: 0.01,
      max: 1,
      default: 0.75,
      description: 'Noise introduced to the input image; 1 erases its details',
    })
    strength?: number;
  }
  return Strength;
}

/** The inpainting mask: white is replaced. */
export function WithMask<B extends Ctor>(Base: B) {
  class Mask extends Base {
    @ImageField('data-url', {
      description: 'The mask as a data URL: a black and white image, the white area is replaced',
    })
    mask?: string;

    @ImageField('asset', { description: 'The mask as an asset id; ignored when mask is given' })
    maskId?: string;
  }
  return Mask;
}

export function WithMerging<B extends Ctor>(Base: B) {
  class Merging extends Base {
    @BoolField({
      default: false,
      description: 'Let the whole input image change during inpainting (faster, harder to merge back)',
    })
    disableMerging?: boolean;
  }
  return Merging;
}

export function WithControlImage<B extends Ctor>(Base: B) {
  class ControlImage extends Base {
    @ImageField('data-url', { description: 'The ControlNet input image as a data URL' })
    controlImage?: string;

    @ImageField('asset', {
      description: 'The ControlNet input image as an asset id; ignored when controlImage is given',
    })
    controlImageId?: string;
  }
  return ControlImage;
}

export function WithModality<B extends Ctor>(Base: B) {
  class Modality extends Base {
    @ApiProperty({
      type: String,
      example: 'depth:0.5,pose:1.0',
      description:
        'One to three modalities or presets, comma-separated, each optionally with a value in ]0, 1]',
    })
    @IsModality()
    modality!: string;

    @NumberField({
      min: 0,
      max: 0.9,
      description: 'Start of the ControlNet guidance, as a fraction of the steps (Flux.1-dev)',
    })
    controlStart?: number;

    @NumberField({
      min: 0.1,
      max: 1,
      description: 'End of the ControlNet guidance, as a fraction of the steps (Flux.1-dev)',
    })
    controlEnd?: number;

    @BoolField({ default: true, description: 'false: detect the modality from the given image' })
    disableModalityDetection?: boolean;
  }
  return Modality;
}

export function WithIpAdapter<B extends Ctor>(Base: B) {
  class IpAdapter extends Base {
    @ImageListField('data-url', { description: 'The IP adapter images as data URLs' })
    ipAdapterImages?: string[];

    @ImageListField('asset', {
      description: 'The IP adapter images as asset ids; ignored when ipAdapterImages is given',
    })
    ipAdapterImageIds?: string[];

    @ImageField('data-url', {
      deprecated: true,
      description: 'Deprecated: one IP adapter image as a data URL; use ipAdapterImages',
    })
    ipAdapterImage?: string;

    @ImageField('asset', {
      deprecated: true,
      description: 'Deprecated: one IP adapter image as an asset id; use ipAdapterImageIds',
    })
    ipAdapterImageId?: string;

    @NumberField({
      min: 0,
      max: 1,
      default: 0.9,
      deprecated: true,
      description: 'Deprecated: IP adapter scale; use ipAdapterScales',
    })
    ipAdapterScale?: number;

    @ApiPropertyOptional({
      type: [Number],
      description: 'IP adapter scale factors, each within [0, 1] (default 0.9)',
    })
    @IsOptional()
    @IsArray()
    @ArrayMaxSize(GENERATE_LIMITS.imagesPerList)
    @IsNumber({}, { each: true })
    @Min(0, { each: true })
    @Max(1, { each: true })
    ipAdapterScales?: number[];

    @EnumField(['character', 'style'], { default: 'style', description: 'The type of IP adapter model' })
    ipAdapterType?: string;
  }
  return IpAdapter;
}
