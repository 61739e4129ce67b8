import { Injectable } from '@nestjs/common';
import type { ThresholdUnit } from '@genasset/contracts';
import type { CreditPlan, Prisma } from '../generated/prisma/client';
import { JobPrisma } from '../job.prisma';
import type { JobTx } from '../jobs/job.repository';

export type { CreditPlan } from '../generated/prisma/client';

/** A Prisma transaction of the job schema: what the plan and threshold routes change plans in. */
export type PlanTx = Prisma.TransactionClient;

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

/** A plan row as `CreditPlan` names its fields (raw statements return them so). */
const PLAN_COLUMNS = (p: string) => `${p}.id, ${p}.team_id AS "teamId", ${p}.period_start AS "periodStart",
  ${p}.period_end AS "periodEnd", ${p}.total_period_units AS "totalPeriodUnits", ${p}.used_units AS "usedUnits",
  ${p}.created_at AS "createdAt", ${p}.updated_at AS "updatedAt"`;

const LOCK_ACCOUNT_SQL = `SELECT plan_id AS "planId" FROM jobs.credit_accounts WHERE team_id = $1 FOR UPDATE`;

const PLAN_SQL = `SELECT ${PLAN_COLUMNS('p')} FROM jobs.credit_plans p WHERE p.id = $1::int`;

const ADD_USED_SQL = `
  UPDATE jobs.credit_plans p SET used_units = p.used_units + $2::int, updated_at = $3::timestamptz
   WHERE p.id = $1::int
  RETURNING ${PLAN_COLUMNS('p')}`;

const RECORD_MOVEMENT_SQL = `
  INSERT INTO jobs.credit_movements (team_id, job_id, plan_id, kind, units, reason, created_at)
  VALUES ($1, $2, $3::int, $4, $5::int, $6, $7::timestamptz)
  ON CONFLICT (job_id, kind) DO NOTHING
  RETURNING 1 AS recorded`;

const CHARGE_OF_SQL = `
  SELECT plan_id AS "planId", units FROM jobs.credit_movements WHERE job_id = $1 AND kind = 'charge'`;

interface ThresholdRow {
  id: number;
  unit: string;
  value: number;
  armed: boolean | null;
  crossings: number | null;
  lastCrossedAt: Date | null;
}

/** Thresholds with their state in one period, in one statement (Prisma's include took two). */
const THRESHOLDS_SQL = `
  SELECT t.id, t.unit, t.value, s.armed, s.crossings, s.last_crossed_at AS "lastCrossedAt"
    FROM jobs.credit_alert_thresholds t
    LEFT JOIN jobs.credit_alert_states s ON s.threshold_id = t.id AND s.plan_id = $2::int
   WHERE t.team_id = $1
   ORDER BY t.unit ASC, t.value DESC`;

const MARK_CROSSED_SQL = `
  INSERT INTO jobs.credit_alert_states (threshold_id, plan_id, armed, crossings, last_crossed_at)
  VALUES ($1::int, $2::int, false, 1, $3::timestamptz)
  ON CONFLICT (threshold_id, plan_id)
  DO UPDATE SET armed = false, crossings = credit_alert_states.crossings + 1, last_crossed_at = EXCLUDED.last_crossed_at`;

const REARM_SQL = `
  UPDATE jobs.credit_alert_states SET armed = true
   WHERE plan_id = $1::int AND threshold_id IN (SELECT json_array_elements_text($2::json)::int)`;

/**
 * Access to plans, accounts, the ledger and alert thresholds; no decisions here. What a job's
 * charge or refund runs (`JobTx`) is raw SQL, so it runs the same on the driver, where job-service
 * runs those transactions, or on a Prisma transaction; the plan and threshold routes (`PlanTx`)
 * use Prisma's model API.
 */
@Injectable()
export class CreditRepository {
  constructor(private readonly prisma: JobPrisma) {}

  /** With the limits every service client has (`TRANSACTION_OPTIONS` of libs/persistence). */
  transaction<T>(work: (tx: PlanTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  /**
   * Locks the team's account row until the transaction ends and returns its
   * current plan. `undefined`: the team has no account (never had a plan);
   * `null`: an account without a plan.
   */
  async lockAccount(tx: JobTx, teamId: string): Promise<CreditPlan | null | undefined> {
    const rows = await tx.$queryRawUnsafe<{ planId: number | null }[]>(LOCK_ACCOUNT_SQL, teamId);
    if (rows.length === 0) return undefined;
    const { planId } = rows[0];
    if (planId === null) return null;
    // A statement of its own, after the lock: under READ COMMITTED it sees what the charge that
    // held the lock before us committed (a join in the locking statement would read the plan as
    // it was before the wait, and overdraw).
    const plans = await tx.$queryRawUnsafe<CreditPlan[]>(PLAN_SQL, planId);
    if (plans.length === 0) throw new Error(`credit plan ${planId} of team ${teamId} not found`);
    return plans[0];
  }

  /** Creates the team's account when missing, then locks it (plan changes of a brand-new team serialise too). */
  async lockOrOpenAccount(tx: PlanTx, teamId: string, at: Date): Promise<CreditPlan | null> {
    await tx.$executeRaw`
      INSERT INTO jobs.credit_accounts (team_id, plan_id, updated_at) VALUES (${teamId}, NULL, ${at})
      ON CONFLICT (team_id) DO NOTHING`;
    return (await this.lockAccount(tx, teamId)) ?? null;
  }

  async startPlan(
    tx: PlanTx,
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
  findPlan(tx: PlanTx, teamId: string, periodStart: Date): Promise<CreditPlan | null> {
    return tx.creditPlan.findUnique({ where: { teamId_periodStart: { teamId, periodStart } } });
  }

  changePlan(
    tx: PlanTx,
    planId: number,
    change: { periodEnd: Date; totalPeriodUnits: number; at: Date },
  ): Promise<CreditPlan> {
    return tx.creditPlan.update({
      where: { id: planId },
      data: { periodEnd: change.periodEnd, totalPeriodUnits: change.totalPeriodUnits, updatedAt: change.at },
    });
  }

  /** Adds `delta` (negative for a refund) to the units used in a period. */
  async addUsed(tx: JobTx, planId: number, delta: number, at: Date): Promise<CreditPlan> {
    const rows = await tx.$queryRawUnsafe<CreditPlan[]>(ADD_USED_SQL, planId, delta, at.toISOString());
    if (rows.length === 0) throw new Error(`credit plan ${planId} not found`);
    return rows[0];
  }

  /** Records a movement unless the job already has one of that kind; whether it was recorded. */
  async recordMovement(tx: JobTx, movement: NewMovement): Promise<boolean> {
    // RETURNING, not a row count: on the driver `$executeRawUnsafe` counts rows returned.
    const rows = await tx.$queryRawUnsafe<unknown[]>(
      RECORD_MOVEMENT_SQL,
      movement.teamId,
      movement.jobId,
      movement.planId,
      movement.kind,
      movement.units,
      movement.reason ?? null,
      movement.at.toISOString(),
    );
    return rows.length === 1;
  }

  async chargeOf(tx: JobTx, jobId: string): Promise<{ planId: number | null; units: number } | undefined> {
    const rows = await tx.$queryRawUnsafe<{ planId: number | null; units: number }[]>(CHARGE_OF_SQL, jobId);
    return rows[0];
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
    const rows = await (tx ?? this.prisma).$queryRawUnsafe<ThresholdRow[]>(THRESHOLDS_SQL, teamId, planId ?? -1);
    return rows.map((row) => ({
      id: row.id,
      unit: row.unit as ThresholdUnit,
      value: row.value,
      armed: row.armed ?? true,
      crossings: row.crossings ?? 0,
      lastCrossedAt: row.lastCrossedAt,
    }));
  }

  /** Makes the team's thresholds exactly `wanted`: kept ones keep their state, others go. */
  async replaceThresholds(
    tx: PlanTx,
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
    await tx.$executeRawUnsafe(MARK_CROSSED_SQL, thresholdId, planId, at.toISOString());
  }

  async rearm(tx: JobTx, thresholdIds: readonly number[], planId: number): Promise<void> {
    if (thresholdIds.length === 0) return;
    await tx.$executeRawUnsafe(REARM_SQL, planId, JSON.stringify(thresholdIds));
  }
}
