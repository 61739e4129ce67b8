import type { ModeBody } from '@genasset/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { BoolField, NumberField, TextField } from './fields';
import { IsSeed } from './validators';

/**
 * The fields most model inputs share, checked when present. Every other field
 * of a custom-model body is passed to the model as it is: the model's own
 * inputs (GET /v1/models/{modelId}) are validated once the model registry
 * exists. Strings that are asset ids or data URLs are resolved like images.
 */
export class CustomGenerateBody implements ModeBody<'custom'> {
  @TextField({ description: 'Text prompt' })
  prompt?: string;

  @TextField({ description: 'Negative prompt' })
  negativePrompt?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string', pattern: '^\\d{1,10}$' }, { type: 'integer' }],
    description: 'Seed (0 to 2147483647)',
  })
  @IsOptional()
  @IsSeed({ allowString: true })
  seed?: string | number;

  @NumberField({ int: true, min: 1, max: 128, description: 'Number of outputs to generate' })
  numSamples?: number;

  @NumberField({
    int: true,
    min: 1,
    max: 128,
    description: 'Number of outputs to generate (models naming it so)',
  })
  numOutputs?: number;

  @NumberField({ int: true, min: 1, max: 16384, description: 'Output width in pixels' })
  width?: number;

  @NumberField({ int: true, min: 1, max: 16384, description: 'Output height in pixels' })
  height?: number;

  @BoolField({ description: 'Hide the generated assets from asset lists' })
  hideResults?: boolean;
}
