import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { CreditAlerts } from '../alerts/credit-alerts';
import { remainingOf } from '../alerts/threshold-rules';
import { CreditRepository } from '../credit.repository';
import { usageOfPlan, type CreditUsageView } from '../usage/credit-usage';

/** How far in the future a periodStart may be (clocks of the billing system and this service differ). */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface CreditPlanCommand {
  teamId: string;
  totalPeriodCreativeUnits: number;
  periodStart: Date;
  periodEnd: Date;
}

/**
 * Sets a team's credit plan, under the team's account lock:
 * - a periodStart later than the current one (or a first plan) starts a new
 *   period at full balance; its thresholds start armed (their state is per period);
 * - the current periodStart changes that period's total and end, keeping what
 *   was used (so repeating the same PUT changes nothing), and evaluates the
 *   alerts against the new total in the same transaction;
 * - an earlier periodStart is refused (409): a late retry of an old request
 *   must not reset the balance; a periodStart in the future (beyond clock skew)
 *   is refused (400): the PUT is what starts the period.
 */
@Injectable()
export class PutCreditPlan {
  private readonly logger = new Logger('CreditPlans');

  constructor(
    private readonly credits: CreditRepository,
    private readonly alerts: CreditAlerts,
  ) {}

  async execute(command: CreditPlanCommand): Promise<CreditUsageView> {
    const { teamId, periodStart, periodEnd, totalPeriodCreativeUnits: total } = command;
    const at = new Date();
    if (periodEnd <= periodStart) {
      throw ApiError.validation([{ field: 'periodEnd', messages: ['periodEnd must be after periodStart'] }]);
    }
    if (periodEnd <= at) {
      throw ApiError.validation([{ field: 'periodEnd', messages: ['periodEnd must be in the future'] }]);
    }
    // The PUT starts the period now: a later start would reset today's balance ahead of time.
    if (periodStart.getTime() > at.getTime() + CLOCK_SKEW_MS) {
      throw ApiError.validation([
        {
          field: 'periodStart',
          messages: ['periodStart must not be in the future: PUT the plan when the period starts'],
        },
      ]);
    }
    const plan = await this.credits.transaction(async (tx) => {
      const current = await this.credits.lockOrOpenAccount(tx, teamId, at);
      if (current && periodStart < current.periodStart) {
        throw new ApiError(
          409,
          'credit_period_outdated',
          `Team ${teamId} is in the period starting ${current.periodStart.toISOString()}; an earlier period cannot be set`,
          { teamId, periodStart: current.periodStart.toISOString() },
        );
      }
      if (!current || periodStart > current.periodStart) {
        return this.credits.startPlan(tx, { teamId, periodStart, periodEnd, totalPeriodUnits: total, at });
      }
      const changed = await this.credits.changePlan(tx, current.id, {
        periodEnd,
        totalPeriodUnits: total,
        at,
      });
      await this.alerts.afterChange(
        tx,
        changed,
        { remaining: remainingOf(current), total: current.totalPeriodUnits },
        { remaining: remainingOf(changed), total: changed.totalPeriodUnits },
        at,
      );
      return changed;
    });
    this.logger.log(
      `team ${teamId}: plan of ${total} units for ${periodStart.toISOString()} – ${periodEnd.toISOString()}`,
    );
    return usageOfPlan(plan);
  }
}
