import type { ThresholdUnit } from '@genasset/contracts';

/** A team's balance in one period at one moment. */
export interface Balance {
  remaining: number;
  total: number;
}

export interface Threshold {
  unit: ThresholdUnit;
  value: number;
  /** false from a crossing until the balance is back at or above the threshold. */
  armed: boolean;
}

/** The remaining units the threshold stands for: `value`% of the period's units, or `value` units. */
export function levelOf(threshold: Pick<Threshold, 'unit' | 'value'>, total: number): number {
  return threshold.unit === 'percent' ? (total * threshold.value) / 100 : threshold.value;
}

/**
 * Remaining units strictly below the threshold ("drop below it"). Percent is compared without
 * division, rounded to 1e-6 so a fractional percentage (0.29 %) is not off by a binary ulp.
 */
export function isBelow(threshold: Pick<Threshold, 'unit' | 'value'>, balance: Balance): boolean {
  if (threshold.unit === 'absolute') return balance.remaining < threshold.value;
  return balance.remaining * 100 < Math.round(balance.total * threshold.value * 1e6) / 1e6;
}

/**
 * What one balance change within a period does to the thresholds:
 * - crossed: armed, not below before, below after → one event each, highest level first
 *   (the order the balance passed them);
 * - rearmed: disarmed and no longer below → armed again for the next crossing.
 * A threshold that is already below when it is armed (added late, or a period
 * whose total is under an absolute threshold) stays quiet: nothing dropped below it.
 */
export function evaluateThresholds<T extends Threshold>(
  thresholds: readonly T[],
  before: Balance,
  after: Balance,
): { crossed: T[]; rearmed: T[] } {
  const crossed = thresholds
    .filter((t) => t.armed && !isBelow(t, before) && isBelow(t, after))
    .sort((a, b) => levelOf(b, after.total) - levelOf(a, after.total));
  const rearmed = thresholds.filter((t) => !t.armed && !isBelow(t, after));
  return { crossed, rearmed };
}

/** Remaining units of a period: what is left of the total (never negative after a lowered total). */
export function remainingOf(plan: { totalPeriodUnits: number; usedUnits: number }): number {
  return Math.max(0, plan.totalPeriodUnits - plan.usedUnits);
}
