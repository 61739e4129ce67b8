import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsISO8601, Max, Min } from 'class-validator';

export const MAX_PERIOD_UNITS = 2_000_000_000;

/** Body of `PUT /admin/v1/teams/{teamId}/credit-plan`. */
export class PutCreditPlanDto {
  @ApiProperty({ example: 10000, minimum: 0, maximum: MAX_PERIOD_UNITS })
  @IsInt()
  @Min(0)
  @Max(MAX_PERIOD_UNITS)
  totalPeriodCreativeUnits!: number;

  @ApiProperty({
    example: '2026-11-01T00:00:00.000Z',
    description:
      'A new value starts a new period at full balance; the current value changes the current period',
  })
  @IsISO8601({ strict: true, strictSeparator: true })
  periodStart!: string;

  @ApiProperty({ example: '2026-12-01T00:00:00.000Z', description: 'After periodStart and in the future' })
  @IsISO8601({ strict: true, strictSeparator: true })
  periodEnd!: string;
}
