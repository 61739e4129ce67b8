import { Injectable } from '@nestjs/common';
import type { ThresholdUnit } from '@genasset/contracts';
import type { CreditAlertThreshold, CreditPlan } from '../generated/prisma/client';
import { JobPrisma } from '../job.prisma';
import type { JobTx } from '../jobs/job.repository';

export type { CreditPlan } from '../generated/prisma/client';

export interface NewMovement {
  teamId: string;
  jobId: string;
  planId: number | null;
  kind: 'charge' | 'refund';
  units: number;
  reason?: 'failure' | 'canceled';
  at: Date;
}

/** A threshold of a team with its state in one period (no state row: armed). */
export interface ThresholdWithState {
  id: number;
  unit: ThresholdUnit;
  value: number;
  armed: boolean;
  crossings: number;
  lastCrossedAt: Date | null;
}

/** Prisma access to plans, accounts, the ledger and alert thresholds; no decisions here. */
@Injectable()
export class CreditRepository {
  constructor(private readonly prisma: JobPrisma) {}

  /** With the limits every service client has (`TRANSACTION_OPTIONS` of libs/persistence). */
  transaction<T>(work: (tx: JobTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  /**
   * Locks the team's account row until the transaction ends and returns its
   * current plan. `undefined`: the team has no account (never had a plan);
   * `null`: an account without a plan.
   */
  async lockAccount(tx: JobTx, teamId: string): Promise<CreditPlan | null | undefined> {
    const rows = await tx.$queryRaw<{ plan_id: number | null }[]>`
      SELECT plan_id FROM jobs.credit_accounts WHERE team_id = ${teamId} FOR UPDATE`;
    if (rows.length === 0) return undefined;
    const planId = rows[0].plan_id;
    return planId === null ? null : tx.creditPlan.findUniqueOrThrow({ where: { id: planId } });
  }

  /** Creates the team's account when missing, then locks it (plan changes of a brand-new team serialise too). */
  async lockOrOpenAccount(tx: JobTx, teamId: string, at: Date): Promise<CreditPlan | null> {
    await tx.$executeRaw`
      INSERT INTO jobs.credit_accounts (team_id, plan_id, updated_at) VALUES (${teamId}, NULL, ${at})
      ON CONFLICT (team_id) DO NOTHING`;
    return (await this.lockAccount(tx, teamId)) ?? null;
  }

  async startPlan(
    tx: JobTx,
    plan: { teamId: string; periodStart: Date; periodEnd: Date; totalPeriodUnits: number; at: Date },
  ): Promise<CreditPlan> {
    const created = await tx.creditPlan.create({
      data: {
        teamId: plan.teamId,
        periodStart: plan.periodStart,
        periodEnd: plan.periodEnd,
        totalPeriodUnits: plan.totalPeriodUnits,
        createdAt: plan.at,
        updatedAt: plan.at,
      },
    });
    await tx.creditAccount.update({
      where: { teamId: plan.teamId },
      data: { planId: created.id, updatedAt: plan.at },
    });
    return created;
  }

  /** A plan row of the team for that period start, current or not. */
  findPlan(tx: JobTx, teamId: string, periodStart: Date): Promise<CreditPlan | null> {
    return tx.creditPlan.findUnique({ where: { teamId_periodStart: { teamId, periodStart } } });
  }

  changePlan(
    tx: JobTx,
    planId: number,
    change: { periodEnd: Date; totalPeriodUnits: number; at: Date },
  ): Promise<CreditPlan> {
    return tx.creditPlan.update({
      where: { id: planId },
      data: { periodEnd: change.periodEnd, totalPeriodUnits: change.totalPeriodUnits, updatedAt: change.at },
    });
  }

  /** Adds `delta` (negative for a refund) to the units used in a period. */
  addUsed(tx: JobTx, planId: number, delta: number, at: Date): Promise<CreditPlan> {
    return tx.creditPlan.update({
      where: { id: planId },
      data: { usedUnits: { increment: delta }, updatedAt: at },
    });
  }

  /** Records a movement unless the job already has one of that kind; whether it was recorded. */
  async recordMovement(tx: JobTx, movement: NewMovement): Promise<boolean> {
    const { count } = await tx.creditMovement.createMany({
      data: [
        {
          teamId: movement.teamId,
          jobId: movement.jobId,
          planId: movement.planId,
          kind: movement.kind,
          units: movement.units,
          reason: movement.reason ?? null,
          createdAt: movement.at,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async chargeOf(tx: JobTx, jobId: string): Promise<{ planId: number | null; units: number } | undefined> {
    const charge = await tx.creditMovement.findUnique({
      where: { jobId_kind: { jobId, kind: 'charge' } },
      select: { planId: true, units: true },
    });
    return charge ?? undefined;
  }

  /** Units charged minus refunded while the team had no plan. */
  async unmeteredUsed(teamId: string): Promise<number> {
    const rows = await this.prisma.creditMovement.groupBy({
      by: ['kind'],
      where: { teamId, planId: null },
      _sum: { units: true },
    });
    const sum = (kind: string) => rows.find((r) => r.kind === kind)?._sum.units ?? 0;
    return sum('charge') - sum('refund');
  }

  /** The team's current plan, read without a lock (usage and alert routes). */
  async currentPlan(teamId: string): Promise<CreditPlan | undefined> {
    const account = await this.prisma.creditAccount.findUnique({
      where: { teamId },
      include: { plan: true },
    });
    return account?.plan ?? undefined;
  }

  /** The team's thresholds (percent first, then by value, highest first) with their state in one period. */
  async thresholds(teamId: string, planId: number | undefined, tx?: JobTx): Promise<ThresholdWithState[]> {
    const rows = await (tx ?? this.prisma).creditAlertThreshold.findMany({
      where: { teamId },
      orderBy: [{ unit: 'asc' }, { value: 'desc' }],
      include: { states: { where: { planId: planId ?? -1 } } },
    });
    return rows.map((row) => withState(row, row.states[0]));
  }

  /** Makes the team's thresholds exactly `wanted`: kept ones keep their state, others go. */
  async replaceThresholds(
    tx: JobTx,
    teamId: string,
    wanted: readonly { unit: ThresholdUnit; value: number }[],
    at: Date,
  ): Promise<void> {
    const key = (t: { unit: string; value: number }) => `${t.unit}:${t.value}`;
    const existing = await tx.creditAlertThreshold.findMany({ where: { teamId } });
    const keep = new Set(wanted.map(key));
    const gone = existing.filter((t) => !keep.has(key(t))).map((t) => t.id);
    if (gone.length) await tx.creditAlertThreshold.deleteMany({ where: { id: { in: gone } } });
    const have = new Set(existing.map(key));
    const added = wanted.filter((t) => !have.has(key(t)));
    if (added.length) {
      await tx.creditAlertThreshold.createMany({
        data: added.map((t) => ({ teamId, unit: t.unit, value: t.value, createdAt: at })),
      });
    }
  }

  async markCrossed(tx: JobTx, thresholdId: number, planId: number, at: Date): Promise<void> {
    await tx.creditAlertState.upsert({
      where: { thresholdId_planId: { thresholdId, planId } },
      create: { thresholdId, planId, armed: false, crossings: 1, lastCrossedAt: at },
      update: { armed: false, crossings: { increment: 1 }, lastCrossedAt: at },
    });
  }

  async rearm(tx: JobTx, thresholdIds: readonly number[], planId: number): Promise<void> {
    if (thresholdIds.length === 0) return;
    await tx.creditAlertState.updateMany({
      where: { planId, thresholdId: { in: [...thresholdIds] } },
      data: { armed: true },
    });
  }
}

function withState(
  threshold: CreditAlertThreshold,
  state: { armed: boolean; crossings: number; lastCrossedAt: Date } | undefined,
): ThresholdWithState {
  return {
    id: threshold.id,
    unit: threshold.unit as ThresholdUnit,
    value: threshold.value,
    armed: state?.armed ?? true,
    crossings: state?.crossings ?? 0,
    lastCrossedAt: state?.lastCrossedAt ?? null,
  };
}
