import { Type } from 'class-transformer';
import {
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** W3C trace context and correlation ids carried across Kafka headers. */
export class TraceHeaders {
  @IsOptional() @IsString() traceparent?: string;
  @IsOptional() @IsString() tracestate?: string;
  @IsOptional() @IsString() requestId?: string;
}

/**
 * Every fact on every topic travels in this envelope. `key` is the aggregate id
 * (job, asset, team) and becomes the Kafka message key, so one aggregate's
 * events stay in order on one partition.
 */
export class EventEnvelope<T = unknown> {
  @IsString()
  @Matches(/^evt_[0-9A-Z]{26}$/, { message: 'id must be evt_ followed by a ULID' })
  id!: string;

  @IsString()
  @MaxLength(200)
  type!: string;

  @IsISO8601({ strict: true })
  occurredAt!: string;

  /** Name of the service that produced the fact. */
  @IsString()
  @MaxLength(100)
  producer!: string;

  @IsString()
  @MaxLength(200)
  key!: string;

  @IsObject()
  data!: T;

  @IsOptional()
  @ValidateNested()
  @Type(() => TraceHeaders)
  trace?: TraceHeaders;
}
