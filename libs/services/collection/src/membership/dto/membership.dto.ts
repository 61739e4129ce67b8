import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Matches } from 'class-validator';
import { COLLECTION_LIMITS, ID_PATTERNS } from '../../common/limits';

const MAX = COLLECTION_LIMITS.idsPerCall;

/** Body of PUT/DELETE /collections/{collectionId}/assets. Repeated ids count once. */
export class AssetIdsDto {
  @ApiProperty({
    description: `The ids of the assets to add to / remove from the collection (max ${MAX} at once)`,
    type: 'array',
    items: { type: 'string', pattern: ID_PATTERNS.asset.source },
    minItems: 1,
    maxItems: MAX,
    example: ['asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX)
  @IsString({ each: true })
  @Matches(ID_PATTERNS.asset, { each: true, message: 'each value in assetIds must be an asset id (asset_…)' })
  assetIds!: string[];
}

/** Body of PUT/DELETE /collections/{collectionId}/models. Repeated ids count once. */
export class ModelIdsDto {
  @ApiProperty({
    description: `The ids of the models to add to / remove from the collection (max ${MAX} at once)`,
    type: 'array',
    items: { type: 'string', pattern: ID_PATTERNS.model.source },
    minItems: 1,
    maxItems: MAX,
    example: ['model_01JD6Z3Q9V8K2M4N6P8R0T2V4X'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX)
  @IsString({ each: true })
  @Matches(ID_PATTERNS.model, { each: true, message: 'each value in modelIds must be a model id (model_…)' })
  modelIds!: string[];
}
