import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsString, Matches, MaxLength } from 'class-validator';
import { ASSET_ID } from '../model-types';

export const PAGE_LIMITS = { descriptionChars: 20_000, examples: 50 } as const;

const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

export class PutDescriptionBody {
  @ApiProperty({
    maxLength: PAGE_LIMITS.descriptionChars,
    description: 'Markdown; `{model:model_…}` and `{asset:asset_…}` tags reference models and assets (docs/models.md)',
  })
  @IsDefined({ message: 'description is required' })
  @IsString()
  @MaxLength(PAGE_LIMITS.descriptionChars)
  description!: string;
}

export class PutExamplesBody {
  @ApiProperty({ type: [String], maxItems: PAGE_LIMITS.examples, description: 'The example assets, in display order (replaces the list)' })
  @IsDefined({ message: 'assetIds is required' })
  @IsArray()
  @ArrayMaxSize(PAGE_LIMITS.examples)
  @Matches(ASSET_ID, { each: true, message: 'assetIds must hold asset ids' })
  assetIds!: string[];
}

export class ModelDescriptionView {
  @ApiProperty() value!: string;
  @ApiProperty({ type: 'array', items: OPEN_OBJECT, description: 'Models the `{model:…}` tags name (those the reader may see)' })
  models!: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT, description: 'Assets the `{asset:…}` tags name, as GET /v1/assets/{assetId} shows them' })
  assets!: Record<string, unknown>[];
}

export class ModelDescriptionResponse {
  @ApiProperty({ type: ModelDescriptionView }) description!: ModelDescriptionView;
}

export class ModelExampleView {
  @ApiProperty() modelId!: string;
  @ApiProperty({ ...OPEN_OBJECT, description: 'The asset, as GET /v1/assets/{assetId} shows it' }) asset!: Record<string, unknown>;
  @ApiProperty({ required: false, description: 'The generation job that made the asset, when one did' }) inferenceId?: string;
}

export class ModelExamplesResponse {
  @ApiProperty({ type: [ModelExampleView] }) examples!: ModelExampleView[];
}
