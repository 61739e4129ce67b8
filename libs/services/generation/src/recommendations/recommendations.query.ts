import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ModelsQuery } from '../models/dto/model.dto';
import { MODEL_TYPES } from '../models/model-types';

const LIST = /^[^,\s]+(\s*,\s*[^,\s]+)*$/;
const listMessage = (field: string) => `${field} must be comma-separated values`;

/** `GET /v1/recommendations/models` (upstream `GetRecommendationsModels`). */
export class RecommendationsQuery extends ModelsQuery {
  @ApiPropertyOptional({ description: 'Comma-separated capabilities or their prefixes/suffixes (txt2, img2img, control): models having each' })
  @IsOptional()
  @MaxLength(1024)
  @Matches(LIST, { message: listMessage('capabilities') })
  capabilities?: string;

  @ApiPropertyOptional({ description: 'Comma-separated model ids left out' })
  @IsOptional()
  @MaxLength(4096)
  @Matches(LIST, { message: listMessage('excludeModelIds') })
  excludeModelIds?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 30, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 30' })
  @Min(1, { message: 'limit must be an integer from 1 to 30' })
  @Max(30, { message: 'limit must be an integer from 1 to 30' })
  limit?: number;

  @ApiPropertyOptional({ description: 'nextToken of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  nextToken?: string;

  @ApiPropertyOptional({ enum: ['private', 'public'], default: 'private' })
  @IsOptional()
  @IsIn(['private', 'public'], { message: 'privacy must be private or public' })
  privacy?: 'private' | 'public';

  @ApiPropertyOptional({ enum: MODEL_TYPES })
  @IsOptional()
  @IsIn(MODEL_TYPES, { message: 'type must be a model type' })
  type?: string;

  @ApiPropertyOptional({ description: 'Comma-separated types left out' })
  @IsOptional()
  @MaxLength(1024)
  @Matches(LIST, { message: listMessage('excludeTypes') })
  excludeTypes?: string;

  @ApiPropertyOptional({ description: 'Comma-separated tags: models carrying all of them' })
  @IsOptional()
  @MaxLength(1024)
  @Matches(LIST, { message: listMessage('tags') })
  tags?: string;
}

export const splitList = (value: string | undefined): string[] =>
  value ? [...new Set(value.split(',').map((v) => v.trim()).filter(Boolean))] : [];
