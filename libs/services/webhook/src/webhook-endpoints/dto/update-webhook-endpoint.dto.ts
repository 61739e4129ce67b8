import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { MAX_DESCRIPTION_LENGTH, MAX_ENABLED_EVENTS, MAX_URL_LENGTH } from './create-webhook-endpoint.dto';
import { Omittable } from '@genasset/http';

/**
 * Body of `PUT …/webhook-endpoints/{id}`: any of the fields; absent ones stay
 * as they are. Only `description` can be null (it removes the note): the
 * other fields always have a value, so null is refused with 400.
 */
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ description: 'Absolute https URL receiving events', maxLength: MAX_URL_LENGTH })
  @Omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({
    description: 'Replaces the subscription; not empty',
    type: [String],
    example: ['*'],
  })
  @Omittable()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_ENABLED_EVENTS)
  @IsString({ each: true })
  enabledEvents?: string[];

  @ApiPropertyOptional({
    description: 'New note; `""` or `null` removes it',
    nullable: true,
    maxLength: MAX_DESCRIPTION_LENGTH,
  })
  // Not Omittable: here null means something (remove the note).
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({
    description: '`false` pauses deliveries (events meanwhile are never sent); `true` resumes',
  })
  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}
