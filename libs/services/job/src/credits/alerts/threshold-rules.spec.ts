import { evaluateThresholds, isBelow, levelOf, remainingOf, type Threshold } from './threshold-rules';

const t = (unit: Threshold['unit'], value: number, armed = true) => ({ unit, value, armed });
const names = (list: Threshold[]) => list.map((x) => `${x.unit}:${x.value}`);

describe('threshold rules', () => {
  it('computes levels in percent of the period or absolute units', () => {
    expect(levelOf(t('percent', 10), 1000)).toBe(100);
    expect(levelOf(t('percent', 12.5), 80)).toBe(10);
    expect(levelOf(t('absolute', 42), 1000)).toBe(42);
  });

  it('is below only strictly under the level', () => {
    expect(isBelow(t('percent', 10), { remaining: 100, total: 1000 })).toBe(false);
    expect(isBelow(t('percent', 10), { remaining: 99, total: 1000 })).toBe(true);
    expect(isBelow(t('absolute', 5), { remaining: 5, total: 10 })).toBe(false);
    expect(isBelow(t('absolute', 5), { remaining: 4, total: 10 })).toBe(true);
    // 1.1 % of 3000 is 33, although 3000 × 1.1 is 3300.0000000000005 in doubles.
    expect(isBelow(t('percent', 1.1), { remaining: 33, total: 3000 })).toBe(false);
    expect(isBelow(t('percent', 1.1), { remaining: 32, total: 3000 })).toBe(true);
  });

  it('crosses an armed threshold when the balance drops below it, highest level first', () => {
    const all = [t('absolute', 50), t('percent', 50), t('percent', 10)];
    const { crossed, rearmed } = evaluateThresholds(
      all,
      { remaining: 600, total: 1000 },
      { remaining: 40, total: 1000 },
    );
    expect(names(crossed)).toEqual(['percent:50', 'percent:10', 'absolute:50']);
    expect(rearmed).toEqual([]);
  });

  it('does not cross a disarmed threshold, nor one that was already below', () => {
    const { crossed } = evaluateThresholds(
      [t('percent', 50, false), t('absolute', 100)],
      { remaining: 90, total: 1000 },
      { remaining: 10, total: 1000 },
    );
    expect(crossed).toEqual([]);
  });

  it('re-arms a crossed threshold once the balance is back at or above it', () => {
    const crossed = [t('absolute', 100, false), t('absolute', 200, false)];
    const { rearmed } = evaluateThresholds(
      crossed,
      { remaining: 50, total: 1000 },
      { remaining: 100, total: 1000 },
    );
    expect(names(rearmed)).toEqual(['absolute:100']);
  });

  it('follows a change of the total within the period', () => {
    // 10 % of 1000 = 100 → 10 % of 2000 = 200: 150 remaining is now below it.
    const { crossed } = evaluateThresholds(
      [t('percent', 10)],
      { remaining: 150, total: 1000 },
      { remaining: 150, total: 2000 },
    );
    expect(names(crossed)).toEqual(['percent:10']);
  });

  it('never reports negative remaining units', () => {
    expect(remainingOf({ totalPeriodUnits: 10, usedUnits: 4 })).toBe(6);
    expect(remainingOf({ totalPeriodUnits: 10, usedUnits: 14 })).toBe(0);
  });
});
