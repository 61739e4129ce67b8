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
  IsISO8601,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { MODEL_LIMITS, MODEL_TYPES } from '../model-types';

/** GET /v1/models/public: every team's public models (upstream's filters and sort). */
export class PublicModelsQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MODEL_LIMITS.pageSize.max, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MODEL_LIMITS.pageSize.max)
  pageSize?: number;

  @ApiPropertyOptional({ description: 'nextPaginationToken of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  paginationToken?: string;

  @ApiPropertyOptional({ enum: MODEL_TYPES })
  @IsOptional()
  @IsIn(MODEL_TYPES, { message: 'type must be a model type' })
  type?: string;

  @ApiPropertyOptional({ description: 'Model types, comma separated' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  types?: string;

  @ApiPropertyOptional({ description: 'Tags, comma separated: models holding every one' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  tags?: string;

  @ApiPropertyOptional({ description: 'Collection ids, comma separated: models in any of them' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  collectionIds?: string;

  @ApiPropertyOptional({ enum: ['createdAt', 'updatedAt'], default: 'createdAt' })
  @IsOptional()
  @IsIn(['createdAt', 'updatedAt'], { message: 'sortBy must be createdAt or updatedAt' })
  sortBy?: 'createdAt' | 'updatedAt';

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'sortDirection must be asc or desc' })
  sortDirection?: 'asc' | 'desc';

  @ApiPropertyOptional({ description: 'ISO date (exclusive); needs sortBy=createdAt (the default)' })
  @IsOptional()
  @IsISO8601({}, { message: 'createdBefore must be an ISO 8601 date' })
  createdBefore?: string;

  @ApiPropertyOptional({ description: 'ISO date (exclusive); needs sortBy=createdAt (the default)' })
  @IsOptional()
  @IsISO8601({}, { message: 'createdAfter must be an ISO 8601 date' })
  createdAfter?: string;

  @ApiPropertyOptional({ description: 'ISO date (exclusive); needs sortBy=updatedAt' })
  @IsOptional()
  @IsISO8601({}, { message: 'updatedBefore must be an ISO 8601 date' })
  updatedBefore?: string;

  @ApiPropertyOptional({ description: 'ISO date (exclusive); needs sortBy=updatedAt' })
  @IsOptional()
  @IsISO8601({}, { message: 'updatedAfter must be an ISO 8601 date' })
  updatedAfter?: string;
}

/** POST /v1/models/get-bulk */
export class GetBulkModelsBody {
  @ApiProperty({ type: [String], maxItems: MODEL_LIMITS.bulk })
  @IsDefined({ message: 'modelIds is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MODEL_LIMITS.bulk)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  modelIds!: string[];

  @ApiPropertyOptional({ description: 'Only id, name and type of each model' })
  @IsOptional()
  @IsBoolean()
  minimal?: boolean;

  @ApiPropertyOptional({ description: 'Every training image instead of the first 3' })
  @IsOptional()
  @IsBoolean()
  allTrainingImages?: boolean;

  @ApiPropertyOptional({ description: 'The first 3 training images (the default; wins over allTrainingImages)' })
  @IsOptional()
  @IsBoolean()
  trainingImagesPreview?: boolean;

  @ApiPropertyOptional({ description: 'Accepted; this registry keeps no prompt embeddings, so it adds nothing' })
  @IsOptional()
  @IsBoolean()
  settings?: boolean;

  @ApiPropertyOptional({ description: 'Accepted; models have no thumbnail here (their training images are in trainingImages)' })
  @IsOptional()
  @IsBoolean()
  thumbnail?: boolean;
}
