import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { LIMITS } from '../../core/limits';

const TAG = { each: true } as const;

/** PUT /v1/assets/{assetId}/tags (upstream `PutAssetsTagsByAssetIdRequest`). */
export class UpdateTagsBody {
  @ApiPropertyOptional({ type: [String], description: 'Tags to add' })
  @IsOptional()
  @IsArray({ message: 'add must be an array of tags' })
  @ArrayMaxSize(LIMITS.tagsPerAsset, { message: `add can hold at most ${LIMITS.tagsPerAsset} tags` })
  @IsString({ ...TAG, message: 'add must contain strings only' })
  @MinLength(1, { ...TAG, message: 'tags cannot be empty' })
  @MaxLength(LIMITS.tagLength, { ...TAG, message: `a tag is at most ${LIMITS.tagLength} characters` })
  @Matches(/^[^,\s](?:[^,]*[^,\s])?$/, { ...TAG, message: 'a tag has no comma and no leading or trailing space' })
  add?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Tags to delete' })
  @IsOptional()
  @IsArray({ message: 'delete must be an array of tags' })
  @ArrayMaxSize(LIMITS.tagsPerAsset, { message: `delete can hold at most ${LIMITS.tagsPerAsset} tags` })
  @IsString({ ...TAG, message: 'delete must contain strings only' })
  delete?: string[];

  @ApiPropertyOptional({ default: true, description: 'true: adding a present tag or deleting an absent one is a 409; false: idempotent' })
  @IsOptional()
  @IsBoolean({ message: 'strict must be a boolean' })
  strict?: boolean;
}

/** PUT /v1/assets/{assetId}/tags: what changed. */
export class UpdateTagsResponse {
  @ApiProperty({ type: [String], description: 'Tags added' })
  added!: string[];

  @ApiProperty({ type: [String], description: 'Tags deleted' })
  deleted!: string[];
}
