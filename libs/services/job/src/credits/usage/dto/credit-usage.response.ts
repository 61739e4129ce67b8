import { ApiProperty } from '@nestjs/swagger';
import type { CreditUsageView } from '../credit-usage';

export class CreditUsageResponse implements CreditUsageView {
  @ApiProperty({ example: 'team_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A' })
  teamId!: string;

  @ApiProperty({ description: 'false: the team has no credit plan; its jobs are not metered' })
  metered!: boolean;

  @ApiProperty({ type: String, nullable: true, example: '2026-11-01T00:00:00.000Z' })
  periodStart!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2026-12-01T00:00:00.000Z' })
  periodEnd!: string | null;

  @ApiProperty({ type: Number, nullable: true, example: 10000 })
  totalPeriodCreativeUnits!: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 8764 })
  remainingCreativeUnits!: number | null;

  @ApiProperty({
    description: 'Charged minus refunded in the current period (unmetered: since the team had no plan)',
    example: 1236,
  })
  usedCreativeUnits!: number;
}
