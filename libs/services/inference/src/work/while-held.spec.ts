import { whileHeld } from './while-held';

const unreachable = () => new Error('connect ECONNREFUSED 127.0.0.1:5432');

describe('whileHeld: the worker writes that end a run, through a database outage', () => {
  it('writes again after failures until the write goes through, and says so for each retry', async () => {
    let calls = 0;
    const retries: number[] = [];
    const result = await whileHeld(
      async () => {
        calls++;
        if (calls < 3) throw unreachable();
        return true;
      },
      {
        heldUntil: () => Date.now() + 60_000,
        initialDelayMs: 5,
        maxDelayMs: 10,
        onRetry: (_, n) => retries.push(n),
      },
    );
    expect(result).toBe(true);
    expect(calls).toBe(3);
    expect(retries).toEqual([1, 2]);
  });

  it('takes an answer as it is: a claim found gone (false) is not written again', async () => {
    let calls = 0;
    const result = await whileHeld(
      async () => {
        calls++;
        return false;
      },
      { heldUntil: () => Date.now() + 60_000, initialDelayMs: 5 },
    );
    expect(result).toBe(false);
    expect(calls).toBe(1);
  });

  it('gives up with the last error once the next try would come after the lease', async () => {
    let calls = 0;
    const heldUntil = Date.now() + 300;
    const started = Date.now();
    await expect(
      whileHeld(
        async () => {
          calls++;
          throw unreachable();
        },
        { heldUntil: () => heldUntil, initialDelayMs: 50, maxDelayMs: 100 },
      ),
    ).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBeGreaterThan(1);
    expect(Date.now()).toBeLessThan(heldUntil + 100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('follows a lease renewed meanwhile', async () => {
    let heldUntil = Date.now() + 50;
    let calls = 0;
    const result = await whileHeld(
      async () => {
        calls++;
        if (calls === 1) {
          heldUntil = Date.now() + 60_000;
          throw unreachable();
        }
        return 'written';
      },
      { heldUntil: () => heldUntil, initialDelayMs: 100 },
    );
    expect(result).toBe('written');
  });

  it('stops waiting at once when the run is stopped (shutdown, cancel)', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = whileHeld(
      async () => {
        throw unreachable();
      },
      {
        heldUntil: () => Date.now() + 60_000,
        initialDelayMs: 5_000,
        maxDelayMs: 5_000,
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow('ECONNREFUSED');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
