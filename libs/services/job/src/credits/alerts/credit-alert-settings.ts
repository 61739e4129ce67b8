import { Injectable } from '@nestjs/common';
import { ApiError, type FieldError } from '@genasset/http';
import type { ThresholdUnit } from '@genasset/contracts';
import { CreditRepository, type ThresholdWithState } from '../credit.repository';
import type { CreditAlertsResponse, CreditAlertThresholdDto } from './dto/credit-alerts.dto';

/**
 * A team's credit alert thresholds. PUT replaces the set: thresholds kept
 * (same unit and value) keep their state in the current period, new ones
 * start armed, removed ones are forgotten. The write takes the team's account
 * lock (when it has one) so it never interleaves with a charge's evaluation.
 */
@Injectable()
export class CreditAlertSettings {
  constructor(private readonly credits: CreditRepository) {}

  async get(teamId: string): Promise<CreditAlertsResponse> {
    const plan = await this.credits.currentPlan(teamId);
    return view(await this.credits.thresholds(teamId, plan?.id));
  }

  async put(teamId: string, thresholds: readonly CreditAlertThresholdDto[]): Promise<CreditAlertsResponse> {
    checkThresholds(thresholds);
    await this.credits.transaction(async (tx) => {
      await this.credits.lockAccount(tx, teamId);
      await this.credits.replaceThresholds(tx, teamId, thresholds, new Date());
    });
    return this.get(teamId);
  }
}

function checkThresholds(thresholds: readonly { unit: ThresholdUnit; value: number }[]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  thresholds.forEach((t, i) => {
    if (t.unit === 'percent' && t.value > 100)
      errors.push({ field: `thresholds.${i}.value`, messages: ['a percent threshold must be ≤ 100'] });
    const key = `${t.unit}:${t.value}`;
    if (seen.has(key))
      errors.push({ field: `thresholds.${i}`, messages: [`threshold ${t.unit} ${t.value} is listed twice`] });
    seen.add(key);
  });
  if (errors.length) throw ApiError.validation(errors);
}

function view(thresholds: readonly ThresholdWithState[]): CreditAlertsResponse {
  return {
    thresholds: thresholds.map((t) => ({
      unit: t.unit,
      value: t.value,
      armed: t.armed,
      lastCrossedAt: t.lastCrossedAt?.toISOString() ?? null,
    })),
  };
}
