import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PROJECT_EVENT_TYPES, TEAM_EVENT_TYPES } from '../../event-catalog';
import { DELIVERY_STATUSES, type DeliveryStatus } from './webhook-event.response';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const EVENT_TYPES: readonly string[] = [...PROJECT_EVENT_TYPES, ...TEAM_EVENT_TYPES];
const ISO = { strict: true, strictSeparator: true } as const;

/** Query of `GET …/{webhookEndpointId}/events`. The filters are an extension of the spec. */
export class ListDeliveriesQuery {
  @ApiPropertyOptional({
    description:
      '`nextPaginationToken` of the previous page, with the same filters (a token names its filters)',
  })
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

  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this status' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;

  @ApiPropertyOptional({
    enum: EVENT_TYPES,
    description: "Only deliveries of this event type (one of the endpoint owner's kind)",
  })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: 'type must be an event type of the catalog' })
  type?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Only deliveries created at or after this time (ISO 8601, inclusive)',
  })
  @IsOptional()
  @IsISO8601(ISO, { message: 'createdAfter must be an ISO 8601 date-time' })
  createdAfter?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Only deliveries created before this time (ISO 8601, exclusive)',
  })
  @IsOptional()
  @IsISO8601(ISO, { message: 'createdBefore must be an ISO 8601 date-time' })
  createdBefore?: string;
}
