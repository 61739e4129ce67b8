import { ApiPropertyOptional } from '@nestjs/swagger';
import { Omittable } from '@genasset/http';
import { IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { COLLECTION_LIMITS, ID_PATTERNS, NOT_BLANK } from '../../common/limits';

/**
 * Upstream requires `name`; the spec says "name and/or thumbnail", so both are
 * optional and at least one must be given (checked by the service, which names
 * both fields). `thumbnail` follows the upstream model update: an asset id, or
 * null to unset.
 */
export class UpdateCollectionDto {
  @ApiPropertyOptional({
    description: 'The new name for the Collection',
    maxLength: COLLECTION_LIMITS.nameMaxLength,
    pattern: NOT_BLANK.source,
  })
  // A name cannot be unset: null is a 400 naming it.
  @Omittable()
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(COLLECTION_LIMITS.nameMaxLength)
  name?: string;

  @ApiPropertyOptional({
    description: 'The AssetId of an image of the project to show as the thumbnail; null unsets it',
    example: 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
    nullable: true,
    type: String,
    pattern: ID_PATTERNS.asset.source,
  })
  // null is meaningful (unset), so only a present non-null value is checked.
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString()
  @Matches(ID_PATTERNS.asset, { message: 'thumbnail must be an asset id (asset_…) or null' })
  thumbnail?: string | null;
}
