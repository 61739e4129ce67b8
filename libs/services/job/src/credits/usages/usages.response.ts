import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { USAGE_NAMES } from './usage-names';

class UsagePoint {
  @ApiProperty({ description: 'UTC start of the point' }) time!: string;
  @ApiProperty({ description: 'The value, as a string (upstream)', example: '12' }) value!: string;
}

class UsageSeries {
  @ApiProperty({ enum: ['1m', '5m', '15m', '30m', '1h', '1d'] }) granularity!: string;
  @ApiProperty({ enum: USAGE_NAMES, description: '`creative-unit-cost`: net units; the others: assets produced' }) usageName!: string;
  @ApiProperty({ type: [UsagePoint] }) points!: UsagePoint[];
}

class UsageUserData {
  @ApiProperty({ description: 'Always true: every author is an API key' }) isApiKey!: boolean;
  @ApiPropertyOptional() apiKeyId?: string;
}

class UsageConsumption {
  @ApiProperty() userId!: string;
  @ApiProperty({ type: UsageUserData }) userData!: UsageUserData;
  @ApiProperty({ description: 'Net creative units in the period' }) value!: number;
}

class UsageActivity {
  @ApiProperty() action!: string;
  @ApiProperty() time!: string;
  @ApiProperty() projectId!: string;
  @ApiProperty() userId!: string;
  @ApiProperty({ type: UsageUserData }) userData!: UsageUserData;
  @ApiProperty({ description: 'Charged minus refunded' }) creativeUnitsCost!: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: '{ isApiKey, job }: the job as GET /v1/jobs/{jobId} shows it' })
  data!: Record<string, unknown>;
}

/** Upstream `GetUsagesResponse`: the sections asked for with `type`. */
export class UsagesResponse {
  @ApiPropertyOptional({ type: [UsageSeries] }) usages?: UsageSeries[];
  @ApiPropertyOptional({ type: [UsageConsumption], description: 'Largest first' }) consumption?: UsageConsumption[];
  @ApiPropertyOptional({ type: [UsageActivity], description: 'Newest first, 100 per page (activityOffset)' }) activity?: UsageActivity[];
}
