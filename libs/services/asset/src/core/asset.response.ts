import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ASSET_PRIVACIES } from '@genasset/contracts';
import { ASSET_TYPES } from './asset-types';

// Response shapes for the OpenAPI document: what AssetPresenter renders
// (upstream `GetAssetsByAssetIdResponse.asset` and the bodies around it).
// Objects stay open (no additionalProperties: false): metadata carries the
// generation parameters a derived asset was created with.

const ISO_EXAMPLE = '2026-11-21T13:00:00.000Z';

export class AssetThumbnailDto {
  @ApiProperty({ example: 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  assetId!: string;

  @ApiProperty({ description: 'Signed, expiring URL of the thumbnail' })
  url!: string;
}

export class AssetMetadataDto {
  @ApiProperty({ enum: ASSET_TYPES, description: 'The asset type' })
  type!: string;

  @ApiProperty({ description: 'image, json (canvases), video, audio, 3d, …' })
  kind!: string;

  @ApiPropertyOptional()
  name?: string;

  @ApiPropertyOptional({ description: 'The parent asset' })
  parentId?: string;

  @ApiPropertyOptional({ description: 'The root asset of the lineage' })
  rootParentId?: string;

  @ApiPropertyOptional({ description: 'The job that generated the asset' })
  parentJobId?: string;

  @ApiPropertyOptional()
  inferenceId?: string;

  @ApiPropertyOptional()
  modelId?: string;

  @ApiPropertyOptional({ type: 'integer' })
  outputIndex?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only while a canvas lock is held' })
  lockExpiresAt?: string;

  @ApiPropertyOptional({ type: AssetThumbnailDto })
  thumbnail?: AssetThumbnailDto;

  @ApiPropertyOptional({ description: 'Copies: the asset copied' })
  originalAssetId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Copies: when' })
  copiedAt?: string;
}

export class AssetPropertiesDto {
  @ApiProperty({ type: 'integer', description: 'Bytes of the original' })
  size!: number;

  @ApiPropertyOptional({ description: 'png, jpeg, webp, json, mp4, …' })
  format?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Images: width as displayed' })
  width?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Images: height as displayed' })
  height?: number;

  @ApiPropertyOptional()
  hasAlpha?: boolean;

  @ApiPropertyOptional({ type: 'integer', description: 'Animated images: frames' })
  nbFrames?: number;
}

export class AssetDto {
  @ApiProperty({ example: 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty({ description: 'Signed URL of the content (1 hour): the web rendition, or the original with originalAssets=true' })
  url!: string;

  @ApiProperty({ example: 'image/png', description: 'Of the original' })
  mimeType!: string;

  @ApiProperty({ example: 'image' })
  kind!: string;

  @ApiProperty({ description: "Upstream's spelling of the type (e.g. inference-txt)" })
  source!: string;

  @ApiProperty({ example: 'success' })
  status!: string;

  @ApiProperty({ enum: ASSET_PRIVACIES })
  privacy!: string;

  @ApiProperty({ description: 'The owning project' })
  ownerId!: string;

  @ApiProperty({ description: 'The API key that created the asset' })
  authorId!: string;

  @ApiProperty({ type: [String] })
  tags!: string[];

  @ApiProperty({
    type: [String],
    description: "The owner's collections holding the asset; [] for callers outside the owning project",
  })
  collectionIds!: string[];

  @ApiProperty({ type: [String], description: 'The edit modes that take the asset as input' })
  editCapabilities!: string[];

  @ApiProperty({ type: AssetMetadataDto })
  metadata!: AssetMetadataDto;

  @ApiProperty({ type: AssetPropertiesDto })
  properties!: AssetPropertiesDto;

  @ApiPropertyOptional()
  description?: string;

  @ApiPropertyOptional({ type: AssetThumbnailDto, description: 'Canvases' })
  thumbnail?: AssetThumbnailDto;

  @ApiPropertyOptional({ type: 'integer', description: 'Job outputs: index among the outputs' })
  outputIndex?: number;

  @ApiPropertyOptional({ type: [Number], description: 'With withEmbedding=true, when the asset has one' })
  embedding?: number[];

  @ApiProperty({ format: 'date-time', example: ISO_EXAMPLE })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', example: ISO_EXAMPLE })
  updatedAt!: string;
}

/** `{ asset }` */
export class AssetResponse {
  @ApiProperty({ type: AssetDto })
  asset!: AssetDto;
}

/** `{ assets }` (get-bulk) */
export class AssetsResponse {
  @ApiProperty({ type: AssetDto, isArray: true })
  assets!: AssetDto[];
}

/** `{ assets, nextPaginationToken? }` (lists) */
export class AssetPageResponse {
  @ApiProperty({ type: AssetDto, isArray: true })
  assets!: AssetDto[];

  @ApiPropertyOptional({ description: 'Token of the next page; absent on the last page' })
  nextPaginationToken?: string;
}

/** `{}` (bulk deletion) */
export class EmptyResponse {}
