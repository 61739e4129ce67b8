import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ProjectQuery } from '../../core/asset-queries';

/** GET /v1/tags (upstream `GetTags`). */
export class ListTagsQuery extends ProjectQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
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
}

export class TagView {
  @ApiProperty({ example: 'landscape' }) tagName!: string;
  @ApiProperty({ description: 'Assets plus models of the project carrying the tag', example: 12 }) itemCount!: number;
  @ApiProperty({ description: 'The project (as `ownerId` of assets)' }) ownerId!: string;
  @ApiProperty({ description: 'Creation of the oldest item carrying the tag' }) createdAt!: string;
  @ApiProperty({ description: 'Latest update of an item carrying the tag' }) updatedAt!: string;
}

/** Upstream `GetTagsResponse`. */
export class ListTagsResponse {
  @ApiProperty({ type: [TagView] }) tags!: TagView[];
  @ApiPropertyOptional() nextPaginationToken?: string;
}
