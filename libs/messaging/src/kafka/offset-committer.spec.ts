import type { TopicPartitionOffsetAndMetadata } from 'kafkajs';
import { OffsetCommitter } from './offset-committer';

describe('OffsetCommitter: applied offsets, committed in batches', () => {
  let commits: TopicPartitionOffsetAndMetadata[][];
  let failures: unknown[];
  const committer = (intervalMs: number, commit?: (offsets: TopicPartitionOffsetAndMetadata[]) => Promise<void>) =>
    new OffsetCommitter(
      commit ??
        (async (offsets) => {
          commits.push(offsets);
        }),
      intervalMs,
      (error) => failures.push(error),
    );

  beforeEach(() => {
    jest.useFakeTimers();
    commits = [];
    failures = [];
  });
  afterEach(() => jest.useRealTimers());

  it('commits once per interval: every partition at its latest offset, in one request', async () => {
    const c = committer(1_000);
    await c.applied('jobs', 0, '5');
    await c.applied('jobs', 1, '3');
    await c.applied('jobs', 0, '6');
    expect(commits).toEqual([]);
    await jest.advanceTimersByTimeAsync(999);
    expect(commits).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(commits).toEqual([
      [
        { topic: 'jobs', partition: 0, offset: '6' },
        { topic: 'jobs', partition: 1, offset: '3' },
      ],
    ]);
    // Nothing new: no request.
    await jest.advanceTimersByTimeAsync(5_000);
    expect(commits).toHaveLength(1);
  });

  it('with interval 0 commits each applied offset before answering', async () => {
    const c = committer(0);
    await c.applied('jobs', 2, '10');
    expect(commits).toEqual([[{ topic: 'jobs', partition: 2, offset: '10' }]]);
  });

  it('flush() commits what is pending at once and waits for it (close, before disconnecting)', async () => {
    const c = committer(60_000);
    await c.applied('assets', 0, '42');
    await c.flush();
    expect(commits).toEqual([[{ topic: 'assets', partition: 0, offset: '42' }]]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(commits).toHaveLength(1);
  });

  it('flushes reach the broker one after the other, in order', async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const c = committer(60_000, async (offsets) => {
      order.push(`start ${offsets[0].offset}`);
      if (offsets[0].offset === '1') await first;
      order.push(`end ${offsets[0].offset}`);
    });
    await c.applied('jobs', 0, '1');
    const one = c.flush();
    await c.applied('jobs', 0, '2');
    const two = c.flush();
    await Promise.resolve();
    expect(order).toEqual(['start 1']);
    release();
    await Promise.all([one, two]);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('a refused commit is reported, not thrown, and later commits go on', async () => {
    let refuse = true;
    const c = committer(100, async (offsets) => {
      if (refuse) throw new Error('The group is rebalancing, so a rejoin is needed');
      commits.push(offsets);
    });
    await c.applied('jobs', 0, '7');
    await jest.advanceTimersByTimeAsync(100);
    expect(failures).toEqual([expect.objectContaining({ message: expect.stringMatching(/rebalancing/) })]);
    refuse = false;
    await c.applied('jobs', 0, '8');
    await jest.advanceTimersByTimeAsync(100);
    expect(commits).toEqual([[{ topic: 'jobs', partition: 0, offset: '8' }]]);
  });

  it('forget() (the group rejoined) drops what is pending: those events come again', async () => {
    const c = committer(100);
    await c.applied('jobs', 0, '9');
    c.forget();
    await jest.advanceTimersByTimeAsync(1_000);
    await c.flush();
    expect(commits).toEqual([]);
  });
});
