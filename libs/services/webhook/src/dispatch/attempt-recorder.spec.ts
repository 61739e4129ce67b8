import type { AttemptResult } from './attempt-outcome';
import { AttemptRecorder } from './attempt-recorder';

const result = (n: number): AttemptResult => ({
  deliveryId: `whevent_${n}`,
  endpointId: 'we_1',
  responseStatusCode: 200,
  ok: true,
  sentAt: new Date(),
  durationMs: 1,
  error: null,
});

describe('AttemptRecorder', () => {
  it('writes results finishing during a write together in the next one (group commit)', async () => {
    const batches: number[] = [];
    let release!: () => void;
    let first = true;
    const recorder = new AttemptRecorder(async (batch) => {
      batches.push(batch.length);
      if (first) {
        first = false;
        await new Promise<void>((r) => (release = r));
      }
      return [];
    });
    recorder.add(result(0));
    for (let i = 1; i <= 5; i++) recorder.add(result(i));
    expect(recorder.pending).toBe(5);
    release();
    await recorder.drain(1_000);
    expect(batches).toEqual([1, 5]);
    expect(recorder.pending).toBe(0);
  });

  it('keeps and retries a batch whose write failed, and reports scheduled retries', async () => {
    let calls = 0;
    const retries: Date[] = [];
    const next = new Date(Date.now() + 60_000);
    const recorder = new AttemptRecorder(
      async (batch) => {
        calls++;
        if (calls === 1) throw new Error('database down');
        return batch.map(() => next);
      },
      { onRetryScheduled: (at) => retries.push(at) },
    );
    recorder.add(result(1));
    recorder.add(result(2));
    await recorder.drain(2_000);
    expect(calls).toBe(2);
    expect(retries).toEqual([next, next]);
  });

  it('gives up at the drain deadline, leaving the rest to lease expiry', async () => {
    const recorder = new AttemptRecorder(() => Promise.reject(new Error('still down')));
    recorder.add(result(1));
    const started = Date.now();
    await recorder.drain(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(recorder.pending).toBe(1);
  });
});
