import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ASSET_PRIVACIES } from '@genasset/contracts';
import { ProjectIdQuery } from '@genasset/auth';
import { ASSET_ID_PATTERN, FOREIGN_ID } from '../../core/asset-ids';
import { ASSET_TYPES } from '../../core/asset-types';

const ISO = { strict: true } as const;

/** The filters GET /v1/assets and the deprecated GET /v1/assets/public share. */
export class PublicAssetListQuery {
  @ApiPropertyOptional({ type: 'integer', description: 'Items per page: 1 to 100', default: 50, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be an integer from 1 to 100' })
  @Min(1, { message: 'pageSize must be an integer from 1 to 100' })
  @Max(100, { message: 'pageSize must be an integer from 1 to 100' })
  pageSize?: number;

  @ApiPropertyOptional({ description: 'nextPaginationToken of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  paginationToken?: string;

  @ApiPropertyOptional({ enum: ['createdAt', 'updatedAt'], default: 'createdAt' })
  @IsOptional()
  @IsIn(['createdAt', 'updatedAt'], { message: 'sortBy must be createdAt or updatedAt' })
  sortBy?: 'createdAt' | 'updatedAt';

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'sortDirection must be asc or desc' })
  sortDirection?: 'asc' | 'desc';

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'ISO 8601 date, exclusive; requires sortBy=createdAt' })
  @IsOptional()
  @IsISO8601(ISO, { message: 'createdBefore must be an ISO 8601 date' })
  createdBefore?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'ISO 8601 date, exclusive; requires sortBy=createdAt' })
  @IsOptional()
  @IsISO8601(ISO, { message: 'createdAfter must be an ISO 8601 date' })
  createdAfter?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'ISO 8601 date, exclusive; requires sortBy=updatedAt' })
  @IsOptional()
  @IsISO8601(ISO, { message: 'updatedBefore must be an ISO 8601 date' })
  updatedBefore?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'ISO 8601 date, exclusive; requires sortBy=updatedAt' })
  @IsOptional()
  @IsISO8601(ISO, { message: 'updatedAfter must be an ISO 8601 date' })
  updatedAfter?: string;

  @ApiPropertyOptional({ enum: ASSET_TYPES, description: 'One asset type; not with types' })
  @IsOptional()
  @IsIn(ASSET_TYPES as unknown as string[], { message: 'type must be one of the asset types of the spec' })
  type?: string;

  @ApiPropertyOptional({ description: 'Comma-separated asset types (form style, not exploded); not with type' })
  @IsOptional()
  @IsString({ message: 'types must be one comma-separated string (types=a,b), not a repeated parameter' })
  @MaxLength(2000)
  types?: string;

  @ApiPropertyOptional({ description: 'Assets of all inferences of this model (not its training images)' })
  @IsOptional()
  @Matches(FOREIGN_ID, { message: 'modelId is not a valid id' })
  modelId?: string;

  @ApiPropertyOptional({ description: 'Comma-separated tags an asset must all carry; public assets only (privacy=public)' })
  @IsOptional()
  @IsString({ message: 'tags must be one comma-separated string' })
  @MaxLength(2000)
  tags?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: url serves the original bytes, not the web rendition' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'originalAssets must be true or false' })
  originalAssets?: string;
}

/** GET /v1/assets: the public filters plus the project-only ones. */
export class ListAssetsQuery extends PublicAssetListQuery {
  @ApiPropertyOptional({ enum: ASSET_PRIVACIES, description: '`public`: public assets of every organisation' })
  @IsOptional()
  @IsIn(ASSET_PRIVACIES as unknown as string[], { message: 'privacy must be private, public or unlisted' })
  privacy?: 'private' | 'public' | 'unlisted';

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(FOREIGN_ID, { message: 'inferenceId is not a valid id' })
  inferenceId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(ASSET_ID_PATTERN, { message: 'parentAssetId must be an asset id (asset_…)' })
  parentAssetId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(ASSET_ID_PATTERN, { message: 'rootAssetId must be an asset id (asset_…)' })
  rootAssetId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(FOREIGN_ID, { message: 'authorId is not a valid id' })
  authorId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(FOREIGN_ID, { message: 'collectionId is not a valid id' })
  collectionId?: string;

  @ProjectIdQuery('whose assets to list')
  projectId?: string;
}

/** Filters a public-access caller may not use (they concern one project's assets). */
export const PROJECT_ONLY_FILTERS = ['inferenceId', 'parentAssetId', 'rootAssetId', 'authorId', 'collectionId', 'projectId'] as const;

/**
 * Filters refused in the public scope whoever asks (privacy=public with a key):
 * they concern one project's assets. `projectId` stays: it names the caller's
 * own project (team-level keys), not whose assets are listed.
 */
export const PUBLIC_SCOPE_REFUSED = PROJECT_ONLY_FILTERS.filter((name) => name !== 'projectId');
