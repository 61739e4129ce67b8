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

/** Body of `PUT …/webhook-endpoints/{id}`: any of the fields; absent ones stay as they are. */
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ description: 'Absolute https URL receiving events', maxLength: MAX_URL_LENGTH })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({
    description: 'Replaces the subscription; not empty',
    type: [String],
    example: ['*'],
  })
  @IsOptional()
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
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({
    description: '`false` pauses deliveries (events meanwhile are never sent); `true` resumes',
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}
