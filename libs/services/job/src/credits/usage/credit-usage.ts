import { Injectable } from '@nestjs/common';
import { remainingOf } from '../alerts/threshold-rules';
import { CreditRepository, type CreditPlan } from '../credit.repository';

/**
 * A team's creative units in its current period (`GET /v1/teams/{teamId}/usage`,
 * and the answer of `PUT /admin/v1/teams/{teamId}/credit-plan`). A team without
 * a plan is unmetered: the period fields are null and `usedCreativeUnits`
 * counts what its jobs cost while it had none.
 */
export interface CreditUsageView {
  teamId: string;
  metered: boolean;
  periodStart: string | null;
  periodEnd: string | null;
  totalPeriodCreativeUnits: number | null;
  remainingCreativeUnits: number | null;
  usedCreativeUnits: number;
}

export function usageOfPlan(plan: CreditPlan): CreditUsageView {
  return {
    teamId: plan.teamId,
    metered: true,
    periodStart: plan.periodStart.toISOString(),
    periodEnd: plan.periodEnd.toISOString(),
    totalPeriodCreativeUnits: plan.totalPeriodUnits,
    remainingCreativeUnits: remainingOf(plan),
    usedCreativeUnits: plan.usedUnits,
  };
}

@Injectable()
export class CreditUsage {
  constructor(private readonly credits: CreditRepository) {}

  async of(teamId: string): Promise<CreditUsageView> {
    const plan = await this.credits.currentPlan(teamId);
    if (plan) return usageOfPlan(plan);
    return {
      teamId,
      metered: false,
      periodStart: null,
      periodEnd: null,
      totalPeriodCreativeUnits: null,
      remainingCreativeUnits: null,
      usedCreativeUnits: await this.credits.unmeteredUsed(teamId),
    };
  }
}
