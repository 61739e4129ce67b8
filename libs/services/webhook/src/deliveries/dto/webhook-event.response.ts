import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const DELIVERY_STATUSES = ['created', 'retrying', 'success', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export class WebhookAttemptRecord {
  @ApiProperty({
    description:
      'The answered status; 200 for any 2xx; 500 also for connection failures; -1 for an error on our side',
  })
  responseStatusCode!: number;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  sentAt!: string;
}

/** The delivery record (spec: Webhook event). */
export class WebhookEventRecord {
  @ApiProperty({
    description:
      "The delivery's id, unchanged across retries. For a first delivery also the `id` of the delivered body; a resend has an id of its own and delivers the body of the event's first delivery (`resendOf`)",
    example: 'whevent_01JCZ6…',
  })
  id!: string;

  @ApiProperty({ example: 'we_01JCZ5…' })
  endpointId!: string;

  @ApiProperty({ example: 'generation.completed' })
  type!: string;

  @ApiProperty({ enum: DELIVERY_STATUSES })
  status!: DeliveryStatus;

  @ApiProperty({
    description: 'The delivered body: { id, type, data, version? }',
    type: 'object',
    additionalProperties: true,
  })
  payload!: Record<string, unknown>;

  @ApiProperty({ type: [WebhookAttemptRecord], description: 'Attempts made, oldest first' })
  attempts!: WebhookAttemptRecord[];

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({
    description: 'When the event was last sent; before the first attempt, when it was recorded (`createdAt`)',
    example: '2026-11-21T13:00:00.120Z',
  })
  sentAt!: string;

  @ApiProperty({ example: '2026-11-21T13:00:00.120Z' })
  updatedAt!: string;

  @ApiPropertyOptional({
    description:
      "Extension, on resends only: the id of the event's first delivery, which is also the `id` in the delivered body (receivers deduplicating on it see a redelivery). Absent on a first delivery",
    example: 'whevent_01JCZ6…',
  })
  resendOf?: string;
}

export class WebhookEventResponse {
  @ApiProperty({ type: WebhookEventRecord })
  webhookEvent!: WebhookEventRecord;
}

export class WebhookEventListResponse {
  @ApiProperty({ type: [WebhookEventRecord], description: 'Deliveries, newest first' })
  items!: WebhookEventRecord[];

  @ApiPropertyOptional({
    description: 'Pass as `paginationToken` for the next page; absent on the last page',
  })
  nextPaginationToken?: string;
}
