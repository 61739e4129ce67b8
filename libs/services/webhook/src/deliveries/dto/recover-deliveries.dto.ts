import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';

const ISO = { strict: true, strictSeparator: true } as const;

/** Body of `POST …/{webhookEndpointId}/recover` (an extension of the spec). */
export class RecoverDeliveriesDto {
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description:
      'Resend every failed delivery created at or after this time; not in the future, and within the delivery log retention (90 days)',
    example: '2026-11-21T00:00:00.000Z',
  })
  @IsISO8601(ISO, { message: 'since must be an ISO 8601 date-time' })
  since!: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Only deliveries created before this time (exclusive); default: now',
  })
  @IsOptional()
  @IsISO8601(ISO, { message: 'until must be an ISO 8601 date-time' })
  until?: string;
}

export class RecoverDeliveriesResponse {
  @ApiProperty({
    type: 'integer',
    description:
      'New deliveries queued: one per event with a failed delivery in the window, unless the event already has a pending or successful delivery',
    example: 3,
  })
  queued!: number;
}
