import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Omittable } from '@genasset/http';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { ProjectIdQuery } from '@genasset/auth';
import {
  MODEL_CAPABILITIES,
  MODEL_LIMITS,
  MODEL_PRIVACIES,
  MODEL_STATUSES,
  MODEL_TYPES,
} from '../model-types';

/** `?projectId=` for team-level keys, and `originalAssets` (accepted; training image URLs are originals). */
export class ModelsQuery {
  @ProjectIdQuery('whose models to use')
  projectId?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'originalAssets must be true or false' })
  originalAssets?: string;
}

export class ListModelsQuery extends ModelsQuery {
  @ApiPropertyOptional({
    enum: ['private', 'public'],
    description: '`private` (default): the project’s models; `public`: every team’s public models',
  })
  @IsOptional()
  @IsIn(['private', 'public'], { message: 'privacy must be private or public' })
  privacy?: 'private' | 'public';

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MODEL_LIMITS.pageSize.min,
    maximum: MODEL_LIMITS.pageSize.max,
    default: MODEL_LIMITS.pageSize.default,
    description: 'Items per page',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(MODEL_LIMITS.pageSize.min)
  @Max(MODEL_LIMITS.pageSize.max)
  pageSize?: number;

  @ApiPropertyOptional({ description: 'nextPaginationToken of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  paginationToken?: string;

  @ApiPropertyOptional({ enum: MODEL_STATUSES })
  @IsOptional()
  @IsIn(MODEL_STATUSES, { message: `status must be one of ${MODEL_STATUSES.join(', ')}` })
  status?: string;

  @ApiPropertyOptional({ enum: MODEL_TYPES })
  @IsOptional()
  @IsIn(MODEL_TYPES, { message: 'type must be a model type' })
  type?: string;

  @ApiPropertyOptional({ description: 'Only the models of this collection' })
  @IsOptional()
  @Matches(/^collection_[0-9A-Za-z]{1,64}$/, { message: 'collectionId must be a collection id' })
  collectionId?: string;

  @ApiPropertyOptional({ description: 'Comma-separated tags: models carrying all of them' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  tags?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description:
      'Upstream: the models blacklisted for the team. No model is ever blacklisted here: true lists none',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'blacklisted must be true or false' })
  blacklisted?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description:
      'Upstream: only models loaded on a GPU. No model is pinned to a GPU here (engines run any model): filters nothing',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'loadedOnly must be true or false' })
  loadedOnly?: string;
}

class ModelFields {
  @ApiPropertyOptional({ example: 'Cinematic Realism' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  shortDescription?: string;

  @ApiPropertyOptional({
    enum: MODEL_TYPES,
    description: 'Default `custom`; changeable while the model is `new`',
  })
  @Omittable()
  @IsIn(MODEL_TYPES, { message: 'type must be a model type' })
  type?: string;

  @ApiPropertyOptional({ enum: MODEL_PRIVACIES, description: 'Default private' })
  @Omittable()
  @IsIn(MODEL_PRIVACIES, { message: `privacy must be one of ${MODEL_PRIVACIES.join(', ')}` })
  privacy?: string;

  @ApiPropertyOptional({ enum: MODEL_CAPABILITIES, isArray: true })
  @Omittable()
  @IsArray()
  @IsIn(MODEL_CAPABILITIES, { each: true, message: 'capabilities must hold capability names' })
  capabilities?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: 'Input definitions of POST /generate/custom/{modelId} (docs/models.md)',
  })
  @IsOptional()
  @IsArray()
  inputs?: unknown[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Training parameters' })
  @Omittable()
  @IsObject()
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'r8',
    description:
      "Not upstream: the backend (a name in the inference worker's INFERENCE_BACKENDS_FILE) the model's trainings and generations run on; null unsets it (docs/models.md)",
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,39}$/, {
    message: 'backend must be a backend name: 1–40 lower-case letters, digits and -, starting with a letter',
  })
  backend?: string | null;
}

/**
 * A tag as asset tags are: no comma (the list filter `tags=a,b` splits on commas, so a tag holding
 * one could never be found) and no leading or trailing space.
 */
const TAG_SHAPE = /^[^,\s](?:[^,]*[^,\s])?$/;
const TAG_SHAPE_MESSAGE = 'a tag has no comma and no leading or trailing space';

export class CreateModelBody extends ModelFields {
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MODEL_LIMITS.tags)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  @Matches(TAG_SHAPE, { each: true, message: TAG_SHAPE_MESSAGE })
  tags?: string[];

  @ApiPropertyOptional({
    type: [String],
    description: 'Not accepted here: add the model with PUT /v1/collections/{collectionId}/models',
  })
  @IsOptional()
  collectionIds?: unknown;
}

export class UpdateModelBody extends ModelFields {}

export class ModelTagsBody {
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MODEL_LIMITS.tags)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(64, { each: true })
  @Matches(TAG_SHAPE, { each: true, message: TAG_SHAPE_MESSAGE })
  add?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MODEL_LIMITS.tags)
  @IsString({ each: true })
  delete?: string[];

  @ApiPropertyOptional({
    default: true,
    description: 'true (default): fail (400) if a tag to delete is not there or one to add already is',
  })
  @IsOptional()
  @IsBoolean()
  strict?: boolean;
}

export class AddTrainingImagesBody {
  @ApiPropertyOptional({ description: 'An image asset of the project (asset_…)' })
  @IsOptional()
  @Matches(/^asset_[0-9A-Za-z]{1,64}$/, { message: 'assetId must be an asset id (asset_…)' })
  assetId?: string;

  @ApiPropertyOptional({ type: [String], description: 'Several image assets of the project' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MODEL_LIMITS.trainingImages)
  @Matches(/^asset_[0-9A-Za-z]{1,64}$/, { each: true, message: 'assetIds must hold asset ids (asset_…)' })
  assetIds?: string[];

  @ApiPropertyOptional({
    type: String,
    description: 'An image as a data URL: stored as an uploaded asset of the project, then added',
  })
  @IsOptional()
  data?: unknown;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  name?: string;

  @ApiPropertyOptional({ enum: ['default', 'style', 'subject'] })
  @IsOptional()
  @IsIn(['default', 'style', 'subject'])
  preset?: string;
}

export class TrainQuery extends ModelsQuery {
  @ApiPropertyOptional({
    enum: ['true', 'false', '1', '0'],
    description: '`true`: check the request and answer the cost; nothing is created',
  })
  @IsOptional()
  @IsIn(['true', 'false', '1', '0'], { message: 'dryRun must be true or false (or 1 or 0)' })
  dryRun?: string;
}

export class TrainBody {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Training parameters (the built-in trainer reads nbEpochs and paletteSize: docs/models.md)',
  })
  @IsOptional()
  @IsObject()
  parameters?: Record<string, unknown>;
}

export class TrainingActionBody {
  @ApiProperty({ enum: ['cancel'] })
  @IsIn(['cancel'], { message: 'action must be cancel' })
  action!: 'cancel';
}

export class DownloadModelBody {
  @ApiPropertyOptional({ description: 'Accepted for compatibility; models here have one epoch' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  modelEpoch?: string;
}
