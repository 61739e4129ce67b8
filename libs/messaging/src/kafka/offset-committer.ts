import type { TopicPartitionOffsetAndMetadata } from 'kafkajs';

/**
 * Commits one consumer's applied offsets in batches: at most once per
 * `intervalMs`, every partition's latest offset in one OffsetCommit request.
 *
 * Why not per chunk: a job's events reach several consumers each, and a commit
 * per applied chunk was a broker round trip (and its kafkajs encoding) on the
 * consumer's path for each: 15 per job in bench/generation's remote run, 0.7 at
 * a 1 s interval. Why not kafkajs's `autoCommitInterval`: with
 * `eachBatch` its runner commits after every batch regardless of the interval,
 * and at a few events per second a batch is one event.
 *
 * What is not committed yet is safe: the offsets are committed only after the
 * transaction that applied their events, so a crash (or a rebalance, which drops
 * the pending offsets: see `forget`) redelivers at most `intervalMs` of applied
 * events, and the inbox drops them. `flush()` before disconnecting: kafkajs
 * ignores commits once disconnect has begun.
 */
export class OffsetCommitter {
  private readonly pending = new Map<string, TopicPartitionOffsetAndMetadata>();
  private timer?: NodeJS.Timeout;
  /** Flushes run one after the other, so a partition's offsets reach the broker in order. */
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly commit: (offsets: TopicPartitionOffsetAndMetadata[]) => Promise<void>,
    private readonly intervalMs: number,
    /** A failed commit: its events are delivered again (to this consumer or the partition's next owner). */
    private readonly onFailure: (error: unknown, offsets: TopicPartitionOffsetAndMetadata[]) => void,
  ) {}

  /** Records `offset` (the next one to read) as applied on the partition; committed within `intervalMs`. */
  applied(topic: string, partition: number, offset: string): Promise<void> {
    this.pending.set(`${topic}\u0000${partition}`, { topic, partition, offset });
    if (this.intervalMs <= 0) return this.flush();
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
    return Promise.resolve();
  }

  /** Commits everything pending now; resolves once it (and any flush before it) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const offsets = [...this.pending.values()];
    this.pending.clear();
    if (offsets.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() =>
      this.commit(offsets).catch((error: unknown) => this.onFailure(error, offsets)),
    );
    return this.flushing;
  }

  /**
   * The group rebalanced: the pending offsets belong to the old assignment, and
   * committing them now could move a partition another member has since advanced
   * back. Its events are delivered again instead; the inbox drops them.
   */
  forget(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
