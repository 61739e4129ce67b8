import type { DatabaseConnection } from '@genasset/persistence';
import { DeliveryWorker } from './delivery-worker';
import type { DispatchSettings } from './dispatch.settings';

const settings: DispatchSettings = {
  retryDelaysMs: [60_000, 120_000],
  maxAttempts: 3,
  timeoutMs: 30_000,
  leaseMs: 60_000,
  allowHttp: true,
  allowPrivate: true,
  endpointConcurrency: 1,
  claimBatch: 10,
  maxInFlight: 2,
  responseBodyLimit: 0,
  pollIntervalMs: 60_000,
  drainTimeoutMs: 1_000,
};

/**
 * A database whose delivery queue looks empty to every claim (unit test: the
 * claim's SQL is covered by the integration tests); each claim is announced.
 */
function emptyQueue(onClaim: () => void): DatabaseConnection {
  const statements = {
    query: async () => {
      onClaim();
      return [{ id: null, candidates: 0 }];
    },
    close: async () => undefined,
  };
  return {
    withSettings: () => statements,
    listen: async () => async () => undefined,
  } as unknown as DatabaseConnection;
}

describe('DeliveryWorker hand-off room', () => {
  let claims = 0;
  let claimed: () => void = () => undefined;
  const nextClaim = () => new Promise<void>((resolve) => (claimed = resolve));
  const worker = new DeliveryWorker(
    emptyQueue(() => {
      claims++;
      claimed();
    }),
    { open: (c) => c },
    settings,
  );

  beforeAll(async () => {
    const first = nextClaim();
    await worker.start();
    await first;
  });
  afterAll(() => worker.stop());

  it('takes hand-offs eight windows deep while the queue is clear, and only a claim window once it fell behind', async () => {
    // 1 per endpoint × 8 windows: the ninth delivery of one endpoint goes to the queue.
    const deep = worker.offer(Array<string>(9).fill('a'))!;
    expect(deep.taken).toEqual([...Array<boolean>(8).fill(true), false]);
    deep.complete([]);

    // The queue now holds a delivery: new ones get a claim's room (1 × prefetch 2), not more.
    const shallow = worker.offer(Array<string>(3).fill('b'))!;
    expect(shallow.taken).toEqual([true, true, false]);
    shallow.complete([]);

    // A claim that leaves nothing due behind clears it.
    const before = claims;
    const claim = nextClaim();
    worker.wake();
    await claim;
    expect(claims).toBe(before + 1);
    await new Promise((r) => setImmediate(r));
    const again = worker.offer(Array<string>(3).fill('c'))!;
    expect(again.taken).toEqual([true, true, true]);
    again.complete([]);
  });
});
