import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ASSET_ID_PATTERN } from '../../core/asset-ids';
import { LIMITS } from '../../core/limits';
import { Omittable } from '@genasset/http';

/** POST /v1/assets (upstream `PostAssetRequest`). */
export class UploadAssetBody {
  @ApiPropertyOptional({ description: 'The image: a data URL or base64. Its format is read from the bytes.' })
  @Omittable()
  @IsString({ message: 'image must be a data URL or a base64 string' })
  image?: string;

  @ApiPropertyOptional({ description: 'A canvas as stringified JSON; ignored when image is given' })
  @Omittable()
  @IsString({ message: 'canvas must be a string holding JSON' })
  canvas?: string;

  @ApiPropertyOptional({ description: "The canvas's thumbnail image (data URL or base64); ignored when image is given" })
  @Omittable()
  @IsString({ message: 'thumbnail must be a data URL or a base64 string' })
  thumbnail?: string;

  @ApiPropertyOptional({ description: 'The original file name; kept as metadata.name, never used to decide the format' })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.nameLength)
  name?: string;

  @ApiPropertyOptional({ description: 'The parent asset (same project): the new asset becomes its child' })
  @IsOptional()
  @Matches(ASSET_ID_PATTERN, { message: 'parentId must be an asset id (asset_…)' })
  parentId?: string;

  @ApiPropertyOptional({ description: 'Not supported here: add the asset with PUT /v1/collections/{id}/assets' })
  @IsOptional()
  @IsArray()
  collectionIds?: unknown[];

  @ApiPropertyOptional({ description: 'Not supported' })
  @IsOptional()
  @IsBoolean()
  hide?: boolean;
}
