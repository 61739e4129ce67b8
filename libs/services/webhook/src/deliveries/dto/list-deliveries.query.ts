import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Query of `GET …/{webhookEndpointId}/events`. */
export class ListDeliveriesQuery {
  @ApiPropertyOptional({ description: '`nextPaginationToken` of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  paginationToken?: string;

  @ApiPropertyOptional({
    description: 'Items per page',
    type: 'integer',
    default: DEFAULT_PAGE_SIZE,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize?: number;
}
