import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ASSET_ID_PATTERN } from '../../core/asset-ids';
import { UPLOAD_KINDS, UPLOAD_LIMITS } from '../upload-limits';

/** Upstream's `assetOptions`. */
export class UploadAssetOptions {
  @ApiPropertyOptional({ description: 'The imported asset becomes a child of this asset (same project)' })
  @IsOptional()
  @Matches(ASSET_ID_PATTERN, { message: 'assetOptions.parentId must be an asset id (asset_…)' })
  parentId?: string;

  @ApiPropertyOptional({
    description: 'Not supported here: add the asset with PUT /v1/collections/{id}/assets',
  })
  @IsOptional()
  @IsArray()
  collectionIds?: unknown[];

  @ApiPropertyOptional({ description: 'Not supported' })
  @IsOptional()
  @IsBoolean()
  hide?: boolean;
}

/** POST /v1/uploads (upstream `PostUploadsRequest`, multipart uploads only). */
export class CreateUploadBody {
  @ApiProperty({ description: 'The original file name, e.g. "walk-cycle.mp4" (kept as the asset name)' })
  @IsString({ message: 'fileName must be a string' })
  @MinLength(1, { message: 'fileName must not be empty' })
  @MaxLength(UPLOAD_LIMITS.fileNameLength)
  fileName!: string;

  @ApiProperty({ description: `Size of the file in bytes (at most ${UPLOAD_LIMITS.maxFileBytes})` })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'fileSize must be a number of bytes' })
  @IsInt({ message: 'fileSize must be a whole number of bytes' })
  @Min(1, { message: 'fileSize must be at least 1' })
  fileSize!: number;

  @ApiProperty({
    description: 'The MIME type of the file; the object is stored and served with it',
    example: 'video/mp4',
  })
  @IsString({ message: 'contentType must be a MIME type' })
  @MaxLength(100)
  contentType!: string;

  @ApiProperty({
    enum: UPLOAD_KINDS,
    description: 'What the file is meant to become: asset (any), image, video, audio, 3d, avatar',
  })
  @IsString()
  kind!: string;

  @ApiPropertyOptional({
    description: `Number of parts (1 to ${UPLOAD_LIMITS.maxParts}); default: 16 MiB parts`,
    minimum: 1,
    maximum: UPLOAD_LIMITS.maxParts,
  })
  @IsOptional()
  @IsInt({ message: 'parts must be a whole number' })
  @Min(1, { message: 'parts must be at least 1' })
  @Max(UPLOAD_LIMITS.maxParts, { message: `parts can be at most ${UPLOAD_LIMITS.maxParts}` })
  parts?: number;

  @ApiPropertyOptional({ type: UploadAssetOptions })
  @IsOptional()
  @IsObject({ message: 'assetOptions must be an object' })
  @ValidateNested()
  @Type(() => UploadAssetOptions)
  assetOptions?: UploadAssetOptions;

  @ApiPropertyOptional({ description: 'Not supported: multipart uploads only' })
  @IsOptional()
  @IsString()
  url?: string;

  @ApiPropertyOptional({ description: 'Not supported (model imports)' })
  @IsOptional()
  @IsString()
  civitaiModelUrl?: string;

  @ApiPropertyOptional({ description: 'Not supported (model imports)' })
  @IsOptional()
  @IsString()
  huggingFaceModelName?: string;
}

export class CompletedPartBody {
  @ApiProperty()
  @IsInt({ message: 'partNumber must be a whole number' })
  @Min(1)
  @Max(UPLOAD_LIMITS.maxParts)
  partNumber!: number;

  @ApiProperty({ description: 'The ETag header the part upload answered' })
  @IsString({ message: 'etag must be a string' })
  @MinLength(1)
  @MaxLength(200)
  etag!: string;
}

/** POST /v1/uploads/{uploadId}/action (upstream `PostUploadsActionRequest`, plus optional `parts` and `cancel`). */
export class UploadActionBody {
  @ApiProperty({ enum: ['complete', 'cancel'] })
  @IsIn(['complete', 'cancel'], { message: 'action must be complete or cancel' })
  action!: 'complete' | 'cancel';

  @ApiPropertyOptional({
    type: [CompletedPartBody],
    description:
      'complete, optional: every part with the ETag its upload answered, checked against what was stored. Without it the server completes with the parts it has, which must be all of them',
  })
  @IsOptional()
  @IsArray({ message: 'parts must be an array of { partNumber, etag }' })
  @ArrayMinSize(1)
  @ArrayMaxSize(UPLOAD_LIMITS.maxParts)
  @IsObject({ each: true, message: 'parts must be an array of { partNumber, etag }' })
  @ValidateNested({ each: true })
  @Type(() => CompletedPartBody)
  parts?: CompletedPartBody[];
}

export class UploadPartView {
  @ApiProperty({ type: 'integer', minimum: 1 })
  number!: number;

  @ApiProperty({ format: 'date-time', description: 'When url expires' })
  expires!: string;

  @ApiProperty({ description: 'Signed PUT URL of the part; its answer carries an ETag header' })
  url!: string;
}

export class UploadAssetOptionsView {
  @ApiProperty({ description: 'The parent of the asset the upload becomes' })
  parentId!: string;
}

/** An upload (upstream `PostUploadsResponse.upload`, plus partSize and expiresAt): what UploadPresenter renders. */
export class UploadViewDto {
  @ApiProperty({ example: 'upload_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty()
  fileName!: string;

  @ApiProperty()
  originalFileName!: string;

  @ApiProperty({ type: 'integer', description: 'Bytes' })
  fileSize!: number;

  @ApiProperty({ type: 'integer' })
  partsCount!: number;

  @ApiProperty({ type: 'integer', description: 'Bytes of every part but the last' })
  partSize!: number;

  @ApiProperty({ example: 'video' })
  kind!: string;

  @ApiProperty({ enum: ['multipart'] })
  source!: string;

  @ApiProperty({
    enum: ['pending', 'validating', 'imported', 'failed'],
    description: 'pending → validating → imported | failed (a cancel fails it)',
  })
  status!: string;

  @ApiProperty()
  authorId!: string;

  @ApiProperty({ description: 'The owning project' })
  ownerId!: string;

  @ApiProperty()
  contentType!: string;

  @ApiPropertyOptional({
    type: UploadPartView,
    isArray: true,
    description: 'While pending: one signed PUT URL per part',
  })
  parts?: UploadPartView[];

  @ApiPropertyOptional({ description: 'The asset, once imported' })
  entityId?: string;

  @ApiPropertyOptional({ description: 'Why the upload failed' })
  errorMessage?: string;

  @ApiPropertyOptional({ type: UploadAssetOptionsView })
  assetOptions?: UploadAssetOptionsView;

  @ApiProperty({ format: 'date-time', description: 'A pending upload not completed by then fails' })
  expiresAt!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

/** `{ upload }` */
export class UploadResponse {
  @ApiProperty({ type: UploadViewDto })
  upload!: UploadViewDto;
}
