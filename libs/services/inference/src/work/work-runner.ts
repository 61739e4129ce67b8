import { errorMessage, sleep } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import { WakeSignal } from '@genasset/messaging';
import type { DatabaseConnection } from '@genasset/persistence';
import { JobExecution, type ExecutionSettings, type Running } from './job-execution';
import { CANCEL_CHANNEL, WORK_CHANNEL, type ClaimedItem, type WorkQueue } from './work-queue';

export interface RunnerSettings extends ExecutionSettings {
  concurrency: number;
  pollIntervalMs: number;
  retentionMs: number;
  /** How long shutdown waits for running jobs before giving them back to the queue. */
  drainTimeoutMs: number;
}

/**
 * The worker loop of one process: claims due work items (up to its
 * concurrency), runs each in the engine its route resolves to, and records
 * the end of each run together with its report, in one transaction, only
 * while it still holds the claim. Woken by NOTIFY when work is queued, and by
 * a poll for anything missed (a retry falling due, a dead worker's lease).
 */
export class WorkRunner {
  private readonly logger = new Logger('InferenceWorker');
  private readonly running = new Map<string, Running>();
  private active = false;
  private loop?: Promise<void>;
  private readonly doorbell = new WakeSignal();
  /**
   * Whether queued work may be waiting: set by NOTIFY and by a claim that
   * filled every free slot, cleared by a claim that found less. A finished
   * run claims again at once only then, so an idle queue costs no claim
   * per job (retries falling due and expired leases are what the poll is for).
   */
  private mayHaveWork = true;
  private listening = false;
  private unlisten: (() => Promise<void>)[] = [];
  private lastPurge = 0;
  private readonly execution: JobExecution;

  constructor(
    private readonly db: DatabaseConnection | undefined,
    private readonly queue: WorkQueue,
    private readonly settings: RunnerSettings,
    execution: (stop: (jobId: string, reason: Running['stopReason']) => void) => JobExecution,
  ) {
    this.execution = execution((jobId, reason) => this.stopRun(jobId, reason));
  }

  async start(): Promise<void> {
    if (this.active) return;
    this.active = true;
    if (this.db) {
      try {
        this.unlisten.push(
          await this.db.listen(WORK_CHANNEL, () => {
            this.mayHaveWork = true;
            this.wake();
          }),
        );
        this.listening = true;
        this.unlisten.push(await this.db.listen(CANCEL_CHANNEL, (jobId) => this.stopRun(jobId, 'canceled')));
      } catch (error) {
        this.logger.warn(`LISTEN failed, relying on polling: ${errorMessage(error)}`);
      }
    }
    this.loop = this.run();
  }

  /** Stops claiming; lets running jobs finish within the drain timeout, then stops the rest and gives them back. */
  async stop(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    this.wake();
    await this.loop;
    for (const off of this.unlisten.splice(0)) await off().catch(() => undefined);
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    const drained = await Promise.race([
      all().then(() => true),
      sleep(this.settings.drainTimeoutMs, { unref: true }).then(() => false),
    ]);
    if (!drained) {
      this.logger.warn(`giving ${this.running.size} running job(s) back to the queue at shutdown`);
      for (const jobId of [...this.running.keys()]) this.stopRun(jobId, 'shutdown');
      await all();
    }
  }

  wake(): void {
    this.doorbell.wake();
  }

  /** Jobs running in this process now. */
  get inFlight(): number {
    return this.running.size;
  }

  private stopRun(jobId: string, reason: Running['stopReason']): void {
    const run = this.running.get(jobId);
    if (!run || run.controller.signal.aborted) return;
    run.stopReason = reason;
    run.controller.abort();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.active) {
      this.doorbell.take();
      const room = this.settings.concurrency - this.running.size;
      let claimed = 0;
      if (room > 0) {
        try {
          // Cleared before the claim: a NOTIFY arriving meanwhile sets it again.
          this.mayHaveWork = false;
          const items = await this.queue.claim(room, this.settings.leaseMs);
          claimed = items.length;
          if (claimed === room) this.mayHaveWork = true;
          for (const item of items) this.launch(item);
          failures = 0;
          await this.purgeNow();
        } catch (error) {
          this.mayHaveWork = true;
          failures++;
          if (failures === 1 || failures % 10 === 0)
            this.logger.warn(`claiming work failed ${failures}x: ${errorMessage(error)}`);
          await this.idle(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
          continue;
        }
      }
      if (claimed > 0 && claimed === room) continue;
      await this.idle(this.settings.pollIntervalMs);
    }
  }

  private launch(item: ClaimedItem): void {
    const controller = new AbortController();
    const entry: Running = { item, controller, done: Promise.resolve() };
    entry.done = this.execution
      .execute(entry)
      .catch((error: unknown) => this.logger.error(`job ${item.jobId}: ${errorMessage(error)}`))
      .finally(() => {
        this.running.delete(item.jobId);
        // Without NOTIFY (LISTEN failed, no database connection) nothing else says when work came.
        if (this.mayHaveWork || !this.listening || !this.active) this.wake();
      });
    this.running.set(item.jobId, entry);
  }

  private async purgeNow(): Promise<void> {
    if (Date.now() - this.lastPurge < 10 * 60_000) return;
    this.lastPurge = Date.now();
    const purged = await this.queue.purge(this.settings.retentionMs);
    if (purged > 0) this.logger.log(`purged ${purged} finished work item(s)`);
  }

  private idle(ms: number): Promise<void> {
    return this.active ? this.doorbell.sleep(ms) : Promise.resolve();
  }
}


