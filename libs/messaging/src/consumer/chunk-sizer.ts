/** How many events the first chunk takes, before any has been timed. */
const FIRST_CHUNK = 16;
/** Weight of the newest chunk in the running estimate: a few chunks follow a change of load. */
const WEIGHT = 0.3;

/**
 * How many events a consumer's next transaction takes. A chunk's effects (its rows, and the
 * outbox events that move other services on) are seen only when it commits, so a chunk of
 * costly events holds back the ones that were done first: 200 job outputs of ~25 ms each in
 * one transaction finished all 200 jobs together, 5 s after the first was ready. So the size
 * follows what events of this consumer have cost lately (wall time, which is what the wait is
 * measured in) to keep a chunk near `budgetMs`, between 1 and `maxEvents`; cheap events keep
 * their large chunks, and so their few transactions. Hand-written: ten lines of arithmetic,
 * the kind no library offers on its own.
 */
export class ChunkSizer {
  private msPerEvent: number | undefined;

  constructor(
    private readonly maxEvents: number,
    private readonly budgetMs: number,
  ) {}

  /** Events for the next transaction. */
  size(): number {
    const max = Math.max(1, this.maxEvents);
    if (this.msPerEvent === undefined) return Math.min(max, FIRST_CHUNK);
    if (this.msPerEvent <= 0) return max;
    return Math.min(max, Math.max(1, Math.floor(this.budgetMs / this.msPerEvent)));
  }

  /** A chunk of `events` took `ms` on the happy path (retries and their backoffs are not its cost). */
  observe(events: number, ms: number): void {
    if (events <= 0) return;
    const sample = ms / events;
    this.msPerEvent = this.msPerEvent === undefined ? sample : this.msPerEvent + WEIGHT * (sample - this.msPerEvent);
  }
}
