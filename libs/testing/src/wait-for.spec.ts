import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('answers the first truthy value of the probe', async () => {
    let calls = 0;
    await expect(waitFor(() => (++calls >= 3 ? 'ready' : undefined), { timeoutMs: 1_000, intervalMs: 5 })).resolves.toBe('ready');
    expect(calls).toBe(3);
  });

  it('fails at the deadline naming what it waited for and the last answer', async () => {
    await expect(waitFor(async () => false, { timeoutMs: 60, intervalMs: 10, what: 'the flag' })).rejects.toThrow(
      /timed out after 60 ms waiting for the flag \(last: false\)/,
    );
  });

  it('gives up on a probe that never settles (a server that accepted and never answers)', async () => {
    const started = Date.now();
    await expect(waitFor(() => new Promise<boolean>(() => undefined), { timeoutMs: 80, what: '/readyz' })).rejects.toThrow(
      /waiting for \/readyz \(last: the probe had not settled 5000 ms after the deadline\)/,
    );
    expect(Date.now() - started).toBeLessThan(6_000);
  }, 10_000);

  it('still takes a slow answer that arrives within the grace after the deadline', async () => {
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 150));
    await expect(waitFor(slow, { timeoutMs: 50 })).resolves.toBe('late');
  });
});
