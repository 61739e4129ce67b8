import { errorMessage, sleep } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import type { AttemptResult } from './attempt-outcome';

export type RecordBatch = (results: readonly AttemptResult[]) => Promise<Date[]>;

/**
 * Group commit for attempt outcomes: results finishing while a batch is being
 * written are written together in the next one, so the database sees one
 * statement per wave of attempts, not one per attempt. With `lingerMs`, a
 * batch smaller than `fillTo` waits that long for more results first: when
 * writes are quick, waves are small and each statement's fixed cost dominates.
 * Nothing waits on a record but the delivery log (the attempt is over, its
 * slot already free), so a few milliseconds cost no delivery latency. A failed
 * write keeps its results and is retried with backoff; the deliveries' leases
 * keep them from being attempted again meanwhile.
 */
export class AttemptRecorder {
  private readonly logger = new Logger('AttemptRecorder');
  private buffer: AttemptResult[] = [];
  private flushing?: Promise<void>;
  private failures = 0;
  private stopped = false;
  private draining = false;
  /** Ends a linger early: the batch filled up, or a drain began. */
  private endLinger?: () => void;
  private readonly maxBatch: number;
  private readonly fillTo: number;
  private readonly lingerMs: number;

  constructor(
    private readonly write: RecordBatch,
    private readonly hooks: {
      /** A delivery was left `retrying`, due at this time. */
      onRetryScheduled?: (at: Date) => void;
      /** A batch was written (the worker may have stopped claiming while outcomes piled up). */
      onWritten?: () => void;
    } = {},
    options: { maxBatch?: number; fillTo?: number; lingerMs?: number } = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1_000;
    this.fillTo = Math.min(this.maxBatch, options.fillTo ?? 1);
    this.lingerMs = options.lingerMs ?? 0;
  }

  /** Results waiting to be written (the worker stops claiming while this grows too large). */
  get pending(): number {
    return this.buffer.length;
  }

  add(result: AttemptResult): void {
    this.buffer.push(result);
    if (this.buffer.length >= this.fillTo) this.endLinger?.();
    this.flushing ??= this.flushLoop().finally(() => (this.flushing = undefined));
  }

  /** Writes everything buffered; gives up (logging what is lost to lease expiry) after `deadlineMs`. */
  async drain(deadlineMs: number): Promise<void> {
    this.draining = true;
    this.endLinger?.();
    const deadline = Date.now() + deadlineMs;
    while (this.buffer.length > 0 || this.flushing) {
      this.flushing ??= this.flushLoop().finally(() => (this.flushing = undefined));
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      await Promise.race([this.flushing, sleep(remaining, { unref: true })]);
    }
    this.stopped = true;
    if (this.buffer.length > 0) {
      this.logger.error(
        `${this.buffer.length} attempt outcome(s) not recorded at shutdown; those deliveries are attempted again when their lease passes`,
      );
    }
  }

  private linger(): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.endLinger = undefined;
        resolve();
      };
      const timer = setTimeout(end, this.lingerMs);
      timer.unref();
      this.endLinger = end;
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.buffer.length > 0 && !this.stopped) {
      if (this.lingerMs > 0 && this.buffer.length < this.fillTo && !this.draining) await this.linger();
      const batch = this.buffer.splice(0, this.maxBatch);
      try {
        const retries = await this.write(batch);
        for (const at of retries) this.hooks.onRetryScheduled?.(at);
        this.hooks.onWritten?.();
        if (this.failures > 0)
          this.logger.log(`recording attempts recovered after ${this.failures} failure(s)`);
        this.failures = 0;
      } catch (error) {
        this.buffer = batch.concat(this.buffer);
        this.failures++;
        const delay = Math.min(5_000, 50 * 2 ** Math.min(this.failures, 7));
        if (this.failures === 1 || this.failures % 10 === 0) {
          this.logger.warn(
            `recording ${batch.length} attempt(s) failed ${this.failures}x, retrying in ${delay} ms: ${errorMessage(error)}`,
          );
        }
        await sleep(delay, { unref: true });
      }
    }
  }
}

