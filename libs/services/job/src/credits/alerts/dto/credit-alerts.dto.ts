import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNumber,
  IsObject,
  Max,
  ValidateNested,
  IsPositive,
} from 'class-validator';
import { THRESHOLD_UNITS, type ThresholdUnit } from '@genasset/contracts';

export const MAX_THRESHOLDS = 20;

export class CreditAlertThresholdDto {
  @ApiProperty({
    enum: THRESHOLD_UNITS,
    description: '`percent`: `value` % of the period’s units; `absolute`: `value` remaining units',
  })
  @IsIn(THRESHOLD_UNITS as unknown as string[])
  unit!: ThresholdUnit;

  @ApiProperty({ example: 10, description: 'percent: > 0 and ≤ 100; absolute: > 0' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(2_000_000_000)
  value!: number;
}

/** Body of `PUT /v1/teams/{teamId}/credit-alerts`: the whole set (an empty list removes every alert). */
export class PutCreditAlertsDto {
  @ApiProperty({ type: [CreditAlertThresholdDto], maxItems: MAX_THRESHOLDS })
  @IsArray()
  @ArrayMaxSize(MAX_THRESHOLDS)
  // ValidateNested alone lets a nested list through ([[{…}]]), which then reached the database as a 500.
  @IsObject({ each: true, message: 'each threshold must be an object { unit, value }' })
  @ValidateNested({ each: true })
  @Type(() => CreditAlertThresholdDto)
  thresholds!: CreditAlertThresholdDto[];
}

export class CreditAlertThresholdState extends CreditAlertThresholdDto {
  @ApiProperty({ description: 'false from a crossing until the balance is back at or above the threshold' })
  armed!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Last time the threshold was crossed in the current period (null: not yet)',
  })
  lastCrossedAt!: string | null;
}

export class CreditAlertsResponse {
  @ApiProperty({ type: [CreditAlertThresholdState] })
  thresholds!: CreditAlertThresholdState[];
}
