import { nextDeliveryState, RETRY_JITTER, type RetrySchedule } from './retry-policy';

const SPEC: RetrySchedule = { retryDelaysMs: [60_000, 120_000], maxAttempts: 3 };
const sentAt = new Date('2026-11-27T12:00:00.000Z');
const failed = { ok: false, sentAt, durationMs: 250 };
const endedAt = sentAt.getTime() + 250;

describe('nextDeliveryState', () => {
  it('makes any successful attempt final, the last one included', () => {
    for (const attempt of [1, 2, 3]) {
      expect(nextDeliveryState(SPEC, attempt, { ok: true, sentAt, durationMs: 5 })).toEqual({
        status: 'success',
        nextAttemptAt: null,
      });
    }
  });

  it('retries the 1st failure 1 minute after the attempt ended, the 2nd 2 minutes after, without jitter', () => {
    expect(nextDeliveryState(SPEC, 1, failed, () => 0)).toEqual({
      status: 'retrying',
      nextAttemptAt: new Date(endedAt + 60_000),
    });
    expect(nextDeliveryState(SPEC, 2, failed, () => 0)).toEqual({
      status: 'retrying',
      nextAttemptAt: new Date(endedAt + 120_000),
    });
  });

  it('fails the delivery for good at the 3rd failed attempt', () => {
    expect(nextDeliveryState(SPEC, 3, failed)).toEqual({ status: 'failed', nextAttemptAt: null });
    // An attempt beyond the limit (a duplicate after a lost lease) never schedules another.
    expect(nextDeliveryState(SPEC, 4, failed)).toEqual({ status: 'failed', nextAttemptAt: null });
  });

  it('keeps the jitter within 0–10 % after the delay: about 1 minute, then about 2 minutes', () => {
    const delays = (attempt: number, r: number) =>
      nextDeliveryState(SPEC, attempt, failed, () => r).nextAttemptAt!.getTime() - endedAt;
    for (const r of [0, 0.25, 0.5, 0.999_999]) {
      expect(delays(1, r)).toBeGreaterThanOrEqual(60_000);
      expect(delays(1, r)).toBeLessThan(66_000);
      expect(delays(2, r)).toBeGreaterThanOrEqual(120_000);
      expect(delays(2, r)).toBeLessThan(132_000);
    }
    expect(delays(1, 0.5)).toBe(60_000 + 60_000 * RETRY_JITTER * 0.5);
    // A random source out of range cannot push a retry outside the bounds.
    expect(delays(1, -3)).toBe(60_000);
    expect(delays(1, 7)).toBe(66_000);
  });

  it('spreads retries of deliveries that failed together', () => {
    const times = new Set(
      Array.from({ length: 50 }, () => nextDeliveryState(SPEC, 1, failed).nextAttemptAt!.getTime()),
    );
    expect(times.size).toBeGreaterThan(1);
  });

  it('follows a configured schedule: attempts are its delays + 1', () => {
    const short: RetrySchedule = { retryDelaysMs: [300, 600, 900], maxAttempts: 4 };
    expect(nextDeliveryState(short, 3, failed, () => 0)).toEqual({
      status: 'retrying',
      nextAttemptAt: new Date(endedAt + 900),
    });
    expect(nextDeliveryState(short, 4, failed).status).toBe('failed');
    expect(nextDeliveryState({ retryDelaysMs: [], maxAttempts: 1 }, 1, failed).status).toBe('failed');
  });
});
