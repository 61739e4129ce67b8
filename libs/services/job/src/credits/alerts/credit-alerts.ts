import { Injectable, Logger } from '@nestjs/common';
import { CreditThresholdCrossed } from '@genasset/contracts';
import { Outbox } from '@genasset/messaging';
import type { JobTx } from '../../jobs/job.repository';
import { CreditRepository, type CreditPlan } from '../credit.repository';
import { evaluateThresholds, type Balance } from './threshold-rules';

/**
 * Credit alerts, evaluated in the transaction of each balance change of a
 * period (charge, refund, change of the plan's total), under the team's
 * account lock: each threshold the change drops the balance below sends one
 * `team.credit.threshold.crossed` through the outbox, committed with the
 * change, and is disarmed; one the balance is back at or above is re-armed.
 * A new period has no state rows yet, so every threshold starts armed.
 */
@Injectable()
export class CreditAlerts {
  private readonly logger = new Logger('CreditAlerts');

  constructor(
    private readonly credits: CreditRepository,
    private readonly outbox: Outbox,
  ) {}

  async afterChange(tx: JobTx, plan: CreditPlan, before: Balance, after: Balance, at: Date): Promise<void> {
    const thresholds = await this.credits.thresholds(plan.teamId, plan.id, tx);
    if (thresholds.length === 0) return;
    const { crossed, rearmed } = evaluateThresholds(thresholds, before, after);
    await this.credits.rearm(
      tx,
      rearmed.map((t) => t.id),
      plan.id,
    );
    for (const threshold of crossed) await this.credits.markCrossed(tx, threshold.id, plan.id, at);
    await this.outbox.write(
      tx,
      crossed.map((threshold) =>
        this.outbox.event(
          CreditThresholdCrossed,
          {
            teamId: plan.teamId,
            thresholdUnit: threshold.unit,
            thresholdValue: threshold.value,
            remainingCreativeUnits: after.remaining,
            totalPeriodCreativeUnits: after.total,
            periodStart: plan.periodStart.toISOString(),
          },
          { occurredAt: at },
        ),
      ),
    );
    for (const threshold of crossed) {
      this.logger.log(
        `team ${plan.teamId}: ${after.remaining}/${after.total} units left, below ${threshold.unit} threshold ${threshold.value}`,
      );
    }
  }
}
