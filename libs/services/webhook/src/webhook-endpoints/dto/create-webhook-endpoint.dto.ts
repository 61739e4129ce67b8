import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 1000;
/** More entries than there are event types (plus `*`) can only be a mistake. */
export const MAX_ENABLED_EVENTS = 50;

const EVENTS_DOC =
  'Event types to receive, or `["*"]` for every event of the owner\'s kind (including later ones). Not empty.';

/** Body of `POST …/webhook-endpoints` (spec: Create body). Unknown fields are refused with 400. */
export class CreateWebhookEndpointDto {
  @ApiProperty({
    description: 'Absolute https URL receiving events',
    example: 'https://example.com/webhooks',
    maxLength: MAX_URL_LENGTH,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @ApiProperty({
    description: EVENTS_DOC,
    type: [String],
    example: ['generation.completed', 'generation.failed'],
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_ENABLED_EVENTS)
  @IsString({ each: true })
  enabledEvents!: string[];

  // null, like "", means no note (as on update). A null url or enabledEvents fails their checks: 400.
  @ApiPropertyOptional({
    description: 'Optional note; `""` or `null` means none',
    nullable: true,
    maxLength: MAX_DESCRIPTION_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;
}
