import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { COLLECTION_LIMITS } from '../../common/limits';
import { TenantQuery } from '../../common/tenant-query.dto';

const { pageSize } = COLLECTION_LIMITS;
const PAGINATION_TOKEN_MAX_LENGTH = 512;

export class ListCollectionsQuery extends TenantQuery {
  @ApiPropertyOptional({
    description: `Items per page: default ${pageSize.default}, minimum ${pageSize.min}, maximum ${pageSize.max}`,
    type: 'integer',
    minimum: pageSize.min,
    maximum: pageSize.max,
    default: pageSize.default,
  })
  @IsOptional()
  // Query values arrive as strings: "abc" becomes NaN and fails IsInt with the field named.
  @Type(() => Number)
  @IsInt()
  @Min(pageSize.min)
  @Max(pageSize.max)
  pageSize?: number;

  @ApiPropertyOptional({
    description: 'A token you received in a previous request to query the next page of items',
    maxLength: PAGINATION_TOKEN_MAX_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(PAGINATION_TOKEN_MAX_LENGTH)
  paginationToken?: string;
}
