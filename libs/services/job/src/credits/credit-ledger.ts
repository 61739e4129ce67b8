import { Inject, Injectable } from '@nestjs/common';
import { InternalApiError } from '@genasset/contracts';
import type { JobTx } from '../jobs/job.repository';
import { CreditAlerts } from './alerts/credit-alerts';
import { remainingOf } from './alerts/threshold-rules';
import { CreditRepository } from './credit.repository';
import { CREDITS_CONFIG, type CreditsConfig } from './credits.config';

export const CREDIT_LEDGER = Symbol('job-service.credit-ledger');

/** What a charge or refund concerns: one job of one team. */
export interface CreditEntry {
  readonly jobId: string;
  readonly teamId: string;
  readonly projectId: string;
  readonly units: number;
}

/**
 * The creative-unit ledger seen from the job lifecycle. Both calls run inside
 * the job's own transaction (`tx`), so a job exists if and only if it was
 * charged, and a refund commits with the failure or cancel that caused it.
 * `charge` throws InternalApiError 402 to refuse the job: the transaction then
 * rolls back and nothing is created.
 */
export interface CreditLedger {
  charge(tx: JobTx, entry: CreditEntry): Promise<void>;
  refund(tx: JobTx, entry: CreditEntry & { readonly reason: 'failure' | 'canceled' }): Promise<void>;
}

/**
 * Per-team balances in the `jobs` schema (docs/credits.md). Every charge and
 * refund of a metered team locks its account row first, so concurrent charges
 * are applied one after the other and never overdraw; the credit alerts are
 * evaluated under the same lock and written through the outbox in the same
 * transaction.
 */
@Injectable()
export class TeamCreditLedger implements CreditLedger {
  constructor(
    private readonly credits: CreditRepository,
    private readonly alerts: CreditAlerts,
    @Inject(CREDITS_CONFIG) private readonly config: CreditsConfig,
  ) {}

  async charge(tx: JobTx, entry: CreditEntry): Promise<void> {
    if (entry.units <= 0) return;
    const at = new Date();
    const plan = await this.credits.lockAccount(tx, entry.teamId);
    if (!plan) {
      if (this.config.CREDITS_UNPLANNED_TEAMS === 'refuse') {
        throw new InternalApiError(
          402,
          'no_credit_plan',
          `Team ${entry.teamId} has no credit plan: this request costs ${entry.units} creative units`,
          { teamId: entry.teamId, required: entry.units },
        );
      }
      await this.credits.recordMovement(tx, { ...movement(entry, null, at), kind: 'charge' });
      return;
    }
    if (at >= plan.periodEnd) {
      throw new InternalApiError(
        402,
        'credit_period_ended',
        `The credit period of team ${entry.teamId} ended at ${plan.periodEnd.toISOString()}; no units can be charged until the next one starts`,
        { teamId: entry.teamId, required: entry.units, periodEnd: plan.periodEnd.toISOString() },
      );
    }
    const remaining = remainingOf(plan);
    if (entry.units > remaining) {
      throw new InternalApiError(
        402,
        'insufficient_credits',
        `Not enough creative units: this request costs ${entry.units}, team ${entry.teamId} has ${remaining} left in this period`,
        { teamId: entry.teamId, required: entry.units, remaining },
      );
    }
    const charged = await this.credits.addUsed(tx, plan.id, entry.units, at);
    await this.credits.recordMovement(tx, { ...movement(entry, plan.id, at), kind: 'charge' });
    await this.alerts.afterChange(
      tx,
      charged,
      { remaining, total: plan.totalPeriodUnits },
      { remaining: remainingOf(charged), total: charged.totalPeriodUnits },
      at,
    );
  }

  /**
   * Gives back what the job was charged (at most `entry.units` of it: a partial refund), once, to the period it was charged
   * in: the balance (and its alerts) move only when that period is still the
   * current one; units of an ended period stay spent.
   */
  async refund(tx: JobTx, entry: CreditEntry & { reason: 'failure' | 'canceled' }): Promise<void> {
    if (entry.units <= 0) return;
    const at = new Date();
    const charge = await this.credits.chargeOf(tx, entry.jobId);
    // Charged nothing (free, or created before the ledger existed): nothing to give back.
    if (!charge) return;
    const units = Math.min(entry.units, charge.units);
    // Lock before writing, in the same order as charges (job row, then account).
    const current = charge.planId === null ? undefined : await this.credits.lockAccount(tx, entry.teamId);
    const recorded = await this.credits.recordMovement(tx, {
      ...movement({ ...entry, units }, charge.planId, at),
      kind: 'refund',
      reason: entry.reason,
    });
    if (!recorded || charge.planId === null) return;
    const refunded = await this.credits.addUsed(tx, charge.planId, -units, at);
    if (current?.id !== charge.planId) return;
    await this.alerts.afterChange(
      tx,
      refunded,
      { remaining: remainingOf(current), total: current.totalPeriodUnits },
      { remaining: remainingOf(refunded), total: refunded.totalPeriodUnits },
      at,
    );
  }
}

function movement(entry: CreditEntry, planId: number | null, at: Date) {
  return { teamId: entry.teamId, jobId: entry.jobId, planId, units: entry.units, at };
}
