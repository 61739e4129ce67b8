import { whileBeating } from './while-beating';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('whileBeating: group heartbeats during a long batch', () => {
  it('heartbeats at the interval while the batch runs, and stops when it ends', async () => {
    let beats = 0;
    const result = await whileBeating(after(260, 'done'), async () => void beats++, 50);
    expect(result).toBe('done');
    expect(beats).toBeGreaterThanOrEqual(4);
    const atEnd = beats;
    await after(150, undefined);
    expect(beats).toBe(atEnd);
  });

  it('a failing heartbeat (the group is rebalancing) neither stops the batch nor surfaces', async () => {
    let beats = 0;
    const result = await whileBeating(
      after(130, 'done'),
      async () => {
        beats++;
        throw new Error('The group is rebalancing, so a rejoin is needed');
      },
      30,
    );
    expect(result).toBe('done');
    expect(beats).toBeGreaterThanOrEqual(2);
  });

  it('passes the batch failure through, and stops beating', async () => {
    let beats = 0;
    await expect(
      whileBeating(
        after(80, undefined).then(() => Promise.reject(new Error('handler failed'))),
        async () => void beats++,
        20,
      ),
    ).rejects.toThrow('handler failed');
    const atEnd = beats;
    await after(100, undefined);
    expect(beats).toBe(atEnd);
  });
});
