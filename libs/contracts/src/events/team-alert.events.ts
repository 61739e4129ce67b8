import { IsIn, IsISO8601, IsNumber, IsOptional, IsString, Min } from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import { TOPICS } from '../topics/topics';

export const THRESHOLD_UNITS = ['percent', 'absolute'] as const;
export type ThresholdUnit = (typeof THRESHOLD_UNITS)[number];

/** A team's remaining creative units dropped below one configured alert threshold. Key: teamId. */
export class CreditThresholdCrossedData {
  @IsString()
  teamId!: string;

  @IsIn(THRESHOLD_UNITS as unknown as string[])
  thresholdUnit!: ThresholdUnit;

  @IsNumber()
  @Min(0)
  thresholdValue!: number;

  @IsNumber()
  remainingCreativeUnits!: number;

  @IsNumber()
  @Min(0)
  totalPeriodCreativeUnits!: number;

  /** Start of the billing period the crossing happened in. */
  @IsOptional()
  @IsISO8601()
  periodStart?: string;
}

export const CreditThresholdCrossed = defineEvent({
  type: 'team.credit.threshold.crossed',
  topic: TOPICS.teamAlerts,
  payload: CreditThresholdCrossedData,
  keyField: 'teamId',
});
