import { startWindowMs } from './lease-budget';

describe('startWindowMs', () => {
  it('leaves the whole timeout plus 5 s of slack out of the default 60 s lease', () => {
    expect(startWindowMs(60_000, 30_000)).toBe(25_000);
  });

  it('keeps half a short margin as slack, so a fresh lease can always start', () => {
    expect(startWindowMs(3_000, 1_000)).toBe(1_000);
    expect(startWindowMs(1_500, 1_000)).toBe(250);
  });

  it('gives no window when the lease does not outlast the timeout', () => {
    expect(startWindowMs(1_000, 1_000)).toBe(0);
    expect(startWindowMs(500, 1_000)).toBe(0);
  });
});
