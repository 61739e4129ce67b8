import type { AttemptResult } from './attempt-outcome';
import { AttemptRecorder } from './attempt-recorder';

const result = (n: number): AttemptResult => ({
  deliveryId: `whevent_${n}`,
  endpointId: 'we_1',
  attempt: 1,
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

describe('AttemptRecorder with a linger', () => {
  it('lets a small batch wait for more results, up to lingerMs', async () => {
    const batches: number[] = [];
    const recorder = new AttemptRecorder(
      async (batch) => {
        batches.push(batch.length);
        return [];
      },
      {},
      { fillTo: 10, lingerMs: 50 },
    );
    recorder.add(result(0));
    await new Promise((r) => setTimeout(r, 10));
    for (let i = 1; i <= 3; i++) recorder.add(result(i));
    await new Promise((r) => setTimeout(r, 100));
    expect(batches).toEqual([4]);
  });

  it('writes a full batch at once, and does not linger while draining', async () => {
    const batches: number[] = [];
    const recorder = new AttemptRecorder(
      async (batch) => {
        batches.push(batch.length);
        return [];
      },
      {},
      { fillTo: 3, lingerMs: 10_000 },
    );
    for (let i = 0; i < 3; i++) recorder.add(result(i));
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toEqual([3]);
    recorder.add(result(9));
    const started = Date.now();
    await recorder.drain(5_000);
    expect(batches).toEqual([3, 1]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
