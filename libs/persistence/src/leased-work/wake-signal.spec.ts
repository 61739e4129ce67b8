import { WakeSignal } from './wake-signal';

describe('WakeSignal', () => {
  it('sleeps for the interval when nobody rings', async () => {
    const signal = new WakeSignal();
    const started = Date.now();
    await signal.sleep(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('a ring ends the current sleep at once', async () => {
    const signal = new WakeSignal();
    const started = Date.now();
    const sleeping = signal.sleep(10_000);
    setTimeout(() => signal.wake(), 10);
    await sleeping;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(signal.take()).toBe(true);
  });

  it('a ring while busy is remembered: the next sleep returns at once, until taken', async () => {
    const signal = new WakeSignal();
    signal.wake();
    expect(signal.pending).toBe(true);
    const started = Date.now();
    await signal.sleep(10_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(signal.take()).toBe(true);
    expect(signal.take()).toBe(false);
    expect(signal.pending).toBe(false);
  });
});
