import { Logger } from '@nestjs/common';
import { errorMessage as message } from '@genasset/contracts';
import type { Running } from './job-execution';
import type { JobReporter } from './job-reporter';
import { whileHeld } from './while-held';
import type { WorkQueueRepository } from './work-queue.repository';

/**
 * Keeps a running job's claim: renews the lease every third of it and with
 * every progress report, knows until when the claim is held, stops the run
 * when the claim is gone (canceled, or taken over after a missed lease), and
 * retries the writes that end a run for as long as the claim lasts.
 */
export class JobLease {
  private readonly logger = new Logger('InferenceWorker');

  constructor(
    private readonly queue: WorkQueueRepository,
    private readonly reporter: JobReporter,
    private readonly leaseMs: number,
    /** Stops a run of this process (the claim is gone). */
    private readonly stop: (jobId: string, reason: Running['stopReason']) => void,
  ) {}

  /** The run starts with its claim just taken: held for a full lease from now. */
  began(run: Running): void {
    run.heldUntil = Date.now() + this.leaseMs;
  }

  /** Renews the lease in the background until the returned function is called. */
  keep(run: Running): () => void {
    const heartbeat = setInterval(() => void this.renew(run), Math.max(250, Math.floor(this.leaseMs / 3)));
    heartbeat.unref();
    return () => clearInterval(heartbeat);
  }

  /** Reports progress (in-progress) with a lease renewal; a lost claim stops the run. */
  async report(run: Running, progress: number): Promise<void> {
    const renewedAt = Date.now();
    const held = await this.queue.renewReporting(
      run.item,
      this.leaseMs,
      this.reporter.progressEvents(run.item.jobId, 'in-progress', progress),
    );
    this.renewed(run, held, renewedAt);
  }

  /**
   * The backend accepted the run's work: stores its handle with a lease renewal and a progress
   * report, in one statement (retried while the claim lasts). False when the claim is gone: then the
   * caller decides what the submitted work becomes.
   */
  async recordHandle(run: Running, handle: string, progress: number): Promise<boolean> {
    const held = await this.persist(run, 'the backend handle', () =>
      this.queue.recordHandle(
        run.item,
        handle,
        this.leaseMs,
        this.reporter.progressEvents(run.item.jobId, 'in-progress', progress),
      ),
    );
    if (held) run.heldUntil = Date.now() + this.leaseMs;
    return held;
  }

  /**
   * A write that ends the run, tried again while the database is unreachable for as long as the claim
   * lasts (whileHeld): an outage shorter than the lease neither loses the run's result nor leaves the
   * job waiting for the lease to lapse.
   */
  persist<T>(run: Running, what: string, write: () => Promise<T>): Promise<T> {
    return whileHeld(write, {
      heldUntil: () => run.heldUntil ?? 0,
      signal: run.controller.signal,
      onRetry: (error, failures) => {
        if (failures === 1)
          this.logger.warn(
            `job ${run.item.jobId}: recording ${what} failed, trying again while the claim lasts: ${message(error)}`,
          );
      },
    });
  }

  private async renew(run: Running): Promise<void> {
    try {
      const renewedAt = Date.now();
      this.renewed(run, await this.queue.renew(run.item, this.leaseMs), renewedAt);
    } catch (error) {
      this.logger.warn(`job ${run.item.jobId}: lease renewal failed: ${message(error)}`);
    }
  }

  /** After a renewal sent at `at`: the lease runs a full term from then, or the claim is gone. */
  private renewed(run: Running, held: boolean, at: number): void {
    if (held) run.heldUntil = at + this.leaseMs;
    else this.lost(run);
  }

  /** The claim is gone: canceled (the usual case) or taken over after a missed lease. */
  private lost(run: Running): void {
    if (run.controller.signal.aborted) return;
    void this.queue.status(run.item.jobId).then(
      (status) => this.stop(run.item.jobId, status === 'canceled' ? 'canceled' : 'lost'),
      () => this.stop(run.item.jobId, 'lost'),
    );
  }
}
