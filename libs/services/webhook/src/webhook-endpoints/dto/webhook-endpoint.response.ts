import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OWNER_TYPES, type OwnerType } from '../../owners/webhook-owner';

/** The endpoint record (spec: Webhook endpoint). Never carries the secret, except on creation. */
export class WebhookEndpointRecord {
  @ApiProperty({ example: 'we_01JCZ5Q3J8W6V8XQ1T9G8Q2N7R' })
  id!: string;

  @ApiProperty({ description: 'The owning project or team', example: 'proj_01JCZ5PZ0D1A0B2C3D4E5F6G7H' })
  ownerId!: string;

  @ApiProperty({ enum: OWNER_TYPES, description: '`project` or `team`' })
  ownerType!: OwnerType;

  @ApiProperty({ example: 'https://example.com/webhooks' })
  url!: string;

  @ApiProperty({ type: [String], example: ['generation.completed'] })
  enabledEvents!: string[];

  @ApiProperty({ description: '`false`: paused' })
  enabled!: boolean;

  @ApiPropertyOptional()
  description?: string;

  @ApiProperty({ description: 'Delivery attempts made (not events); never resets' })
  nbTotalCalls!: number;

  @ApiProperty({ description: 'Failed delivery attempts; never resets' })
  nbFailedCalls!: number;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  updatedAt!: string;
}

export class CreatedWebhookEndpointRecord extends WebhookEndpointRecord {
  @ApiProperty({
    description: 'Signing secret: shown only in this response, cannot be shown again',
    example: 'whsec_…',
  })
  secret!: string;
}

export class CreateWebhookEndpointResponse {
  @ApiProperty({ type: CreatedWebhookEndpointRecord })
  webhookEndpoint!: CreatedWebhookEndpointRecord;
}

export class WebhookEndpointResponse {
  @ApiProperty({ type: WebhookEndpointRecord })
  webhookEndpoint!: WebhookEndpointRecord;
}

export class WebhookEndpointListResponse {
  @ApiProperty({ type: [WebhookEndpointRecord], description: 'Every endpoint of the owner, oldest first' })
  webhookEndpoints!: WebhookEndpointRecord[];
}
