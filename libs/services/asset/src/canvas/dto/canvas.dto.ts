import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ASSET_PRIVACIES } from '@genasset/contracts';
import { ProjectQuery } from '../../core/asset-queries';
import { AssetResponse } from '../../core/asset.response';
import { LIMITS } from '../../core/limits';
import { Omittable } from '@genasset/http';

const ISO = { strict: true } as const;

/** PUT /v1/assets/{assetId} (upstream `PutAssetByAssetIdRequest`, plus `privacy`). */
export class UpdateAssetBody {
  @ApiPropertyOptional({ description: 'The lock held on the canvas; required while it is locked' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  lockId?: string;

  @ApiPropertyOptional({ description: 'Extends the held lock (with lockId) to this ISO time, at most 1 hour ahead' })
  @Omittable()
  @IsISO8601(ISO, { message: 'lockExpiresAt must be an ISO 8601 date' })
  lockExpiresAt?: string;

  @ApiPropertyOptional({ description: 'The new canvas, stringified JSON (canvas assets only)' })
  @Omittable()
  @IsString({ message: 'canvas must be a string holding JSON' })
  canvas?: string;

  @ApiPropertyOptional({ description: 'The new thumbnail image, data URL or base64 (canvas assets only)' })
  @Omittable()
  @IsString({ message: 'thumbnail must be a data URL or a base64 string' })
  thumbnail?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.nameLength)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.descriptionLength)
  description?: string;

  @ApiPropertyOptional({ description: 'true: this canvas update records no snapshot' })
  @IsOptional()
  @IsBoolean({ message: 'disableSnapshot must be a boolean' })
  disableSnapshot?: boolean;

  @ApiPropertyOptional({ enum: ASSET_PRIVACIES, description: 'Extension: publish (public, unlisted) or unpublish (private) the asset' })
  @Omittable()
  @IsIn(ASSET_PRIVACIES as unknown as string[], { message: 'privacy must be private, public or unlisted' })
  privacy?: 'private' | 'public' | 'unlisted';
}

/** PUT /v1/assets/{assetId}/lock */
export class LockBody {
  @ApiPropertyOptional({ description: 'When the lock expires (ISO), at most 1 hour ahead; default 5 minutes from now' })
  @Omittable()
  @IsISO8601(ISO, { message: 'lockExpiresAt must be an ISO 8601 date' })
  lockExpiresAt?: string;
}

/** PUT /v1/assets/{assetId}/unlock */
export class UnlockBody {
  @ApiPropertyOptional({ description: 'The lock to release' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  lockId?: string;

  @ApiPropertyOptional({ description: 'Release whatever lock is held (project admins)' })
  @IsOptional()
  @IsBoolean({ message: 'forceUnlock must be a boolean' })
  forceUnlock?: boolean;
}

/** GET /v1/assets/{assetId}/snapshots */
export class SnapshotsQuery extends ProjectQuery {
  @ApiProperty({ type: 'integer', required: false, default: 10, minimum: 10, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be an integer from 10 to 100' })
  @Min(10, { message: 'pageSize must be an integer from 10 to 100' })
  @Max(100, { message: 'pageSize must be an integer from 10 to 100' })
  pageSize?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  paginationToken?: string;
}

/** PUT /v1/assets/{assetId}/lock: `{ asset, lockId }` */
export class LockResponse extends AssetResponse {
  @ApiProperty({ example: 'lock_01JD6Z3Q9V8K2M4N6P8R0T2V4X', description: 'Give it to PUT /v1/assets/{assetId} and to unlock' })
  lockId!: string;
}

export class SnapshotDto {
  @ApiProperty({ type: 'integer', description: 'Unix time in milliseconds' })
  takenAt!: number;

  @ApiProperty({ description: 'The canvas JSON as sent' })
  rawData!: string;

  @ApiProperty()
  authorId!: string;

  @ApiProperty({ description: 'sha256 of rawData, hex' })
  hash!: string;
}

/** GET /v1/assets/{assetId}/snapshots */
export class SnapshotPageResponse {
  @ApiProperty({ type: SnapshotDto, isArray: true })
  snapshots!: SnapshotDto[];

  @ApiPropertyOptional({ description: 'Token of the next page; absent on the last page' })
  nextPaginationToken?: string;
}
