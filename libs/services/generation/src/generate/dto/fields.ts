import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { GENERATE_LIMITS } from '../limits';
import { ImageRef, type ImageAccepts } from './image-ref';
import { IsSeed } from './validators';

// Decorator bundles for the generate bodies: each puts the OpenAPI property and
// its validation side by side, so a field is declared once.

interface Common {
  description: string;
  required?: boolean;
  deprecated?: boolean;
}

const presence = (required?: boolean) => (required ? IsDefined() : IsOptional());
const property = (required: boolean | undefined, options: Record<string, unknown>) =>
  required ? ApiProperty(options) : ApiPropertyOptional(options);

export function NumberField(o: Common & { min?: number; max?: number; int?: boolean; default?: number }) {
  return applyDecorators(
    property(o.required, {
      type: o.int ? 'integer' : 'number',
      minimum: o.min,
      maximum: o.max,
      default: o.default,
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    o.int ? IsInt() : IsNumber({ allowNaN: false, allowInfinity: false }),
    ...(o.min !== undefined ? [Min(o.min)] : []),
    ...(o.max !== undefined ? [Max(o.max)] : []),
  );
}

export function BoolField(o: Common & { default?: boolean }) {
  return applyDecorators(
    property(o.required, {
      type: Boolean,
      default: o.default,
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    IsBoolean(),
  );
}

export function TextField(o: Common & { maxLength?: number; allowEmpty?: boolean; example?: string }) {
  const maxLength = o.maxLength ?? GENERATE_LIMITS.textLength;
  return applyDecorators(
    property(o.required, {
      type: String,
      maxLength,
      example: o.example,
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    IsString(),
    MaxLength(maxLength),
    ...(o.required && !o.allowEmpty ? [IsNotEmpty()] : []),
  );
}

export function EnumField(values: readonly (string | number)[], o: Common & { default?: string | number }) {
  return applyDecorators(
    property(o.required, {
      enum: values,
      default: o.default,
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    IsIn(values as unknown[], { message: (args) => `${args.property} must be one of: ${values.join(', ')}` }),
  );
}

/** Model, epoch and other ids of the model registry: shape only (the registry checks existence). */
export const FOREIGN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function IdField(o: Common & { example?: string }) {
  return applyDecorators(
    property(o.required, {
      type: String,
      example: o.example,
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    IsString(),
    Matches(FOREIGN_ID, { message: (args) => `${args.property} is not a valid id` }),
  );
}

const ASSET_EXAMPLE = 'asset_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A';
const DATA_URL_EXAMPLE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVQYV2NgYAAAAAMAAWgmWQ0AAAAASUVORK5CYII=';
/** An example the field accepts: a data-URL-only field (mask, controlImage…: upstream takes asset ids in its `…Id` sibling) shows a data URL. */
const IMAGE_EXAMPLES: Record<ImageAccepts, string> = {
  'asset-or-data-url': ASSET_EXAMPLE,
  asset: ASSET_EXAMPLE,
  'data-url': DATA_URL_EXAMPLE,
};

/** One image: an asset id of the caller's project and/or a data URL, as `accepts` says. */
export function ImageField(accepts: ImageAccepts, o: Common) {
  return applyDecorators(
    property(o.required, {
      type: String,
      example: IMAGE_EXAMPLES[accepts],
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    ImageRef(accepts),
  );
}

/** A list of images (at most GENERATE_LIMITS.imagesPerList unless `max` says fewer). */
export function ImageListField(accepts: ImageAccepts, o: Common & { max?: number; min?: number }) {
  const max = o.max ?? GENERATE_LIMITS.imagesPerList;
  return applyDecorators(
    property(o.required, {
      type: [String],
      maxItems: max,
      minItems: o.min,
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    IsArray(),
    ArrayMaxSize(max),
    ...(o.min ? [ArrayMinSize(o.min)] : []),
    ImageRef(accepts, { each: true }),
  );
}

export function StringListField(o: Common & { maxItems?: number; maxLength?: number }) {
  const maxItems = o.maxItems ?? GENERATE_LIMITS.listItems;
  return applyDecorators(
    property(o.required, { type: [String], maxItems, description: o.description, deprecated: o.deprecated }),
    presence(o.required),
    IsArray(),
    ArrayMaxSize(maxItems),
    IsString({ each: true }),
    MaxLength(o.maxLength ?? 1000, { each: true }),
  );
}

/** A nested object validated by its own class. */
export function NestedField(type: () => new () => object, o: Common & { list?: boolean; maxItems?: number }) {
  return applyDecorators(
    property(o.required, {
      type: o.list ? [type()] : type(),
      description: o.description,
      deprecated: o.deprecated,
    }),
    presence(o.required),
    // A single nested body must be an object: ValidateNested alone lets a list of them through.
    ...(o.list ? [IsArray(), ArrayMaxSize(o.maxItems ?? GENERATE_LIMITS.listItems)] : [IsObject()]),
    ValidateNested({ each: o.list ?? false }),
    Type(type),
  );
}

/** An integer seed in [0, 2^31-1] (the inference modes also take a digit string: see InferenceBody). */
export function SeedField() {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 0,
      maximum: 2147483647,
      description: 'Used to reproduce previous results. Default: random',
    }),
    IsOptional(),
    IsSeed({ allowString: false }),
  );
}
