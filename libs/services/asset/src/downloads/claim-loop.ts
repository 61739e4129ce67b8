import { errorMessage } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import { WakeSignal } from '@genasset/messaging';
import type { DatabaseConnection } from '@genasset/persistence';

export interface ClaimLoopOptions {
  /** For logs. */
  name: string;
  /** Tasks run at once by this process. */
  concurrency: number;
  /** Safety-net poll (work of other replicas, missed notifications, back-off expiring). */
  pollIntervalMs: number;
  /** NOTIFY channel that announces new work (committed with it). */
  channel: string;
  /** Periodic housekeeping (purges), if any. */
  maintenance?: { everyMs: number; run(): Promise<unknown> };
}

/**
 * A claimed piece of work. `signal` aborts when the process stops: the task
 * must give its claim back (another replica takes it at once) rather than
 * finish.
 */
export type ClaimedTask = (signal: AbortSignal) => Promise<void>;

/**
 * The worker loop of a database work queue: claims one row at a time while
 * it has room (`claim` returns undefined when nothing is due), runs it, and
 * sleeps until NOTIFY, a finished task or the poll. Claims themselves live in
 * the database (FOR UPDATE SKIP LOCKED plus a lease), so replicas share the
 * queue and a crash only delays work until its lease runs out.
 */
export class ClaimLoop {
  private readonly logger: Logger;
  private readonly tasks = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private running = false;
  private loop?: Promise<void>;
  private readonly doorbell = new WakeSignal();
  private unlisten?: () => Promise<void>;
  private lastMaintenance = 0;
  private failures = 0;

  constructor(
    private readonly db: DatabaseConnection,
    private readonly options: ClaimLoopOptions,
    private readonly claim: () => Promise<ClaimedTask | undefined>,
  ) {
    this.logger = new Logger(options.name);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      this.unlisten = await this.db.listen(this.options.channel, () => this.wake());
    } catch (error) {
      this.logger.warn(`LISTEN ${this.options.channel} failed, relying on polling: ${errorMessage(error)}`);
    }
    this.loop = this.run();
  }

  /** Stops claiming, aborts the tasks in flight (they give their claims back) and waits for them. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.tasks]);
    await this.unlisten?.().catch(() => undefined);
  }

  /** Claim now (new work was committed in this process, or a slot freed up). */
  wake(): void {
    this.doorbell.wake();
  }

  get inFlight(): number {
    return this.tasks.size;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.doorbell.take();
      let delay = this.options.pollIntervalMs;
      try {
        await this.maintain();
        while (this.running && this.tasks.size < this.options.concurrency) {
          const task = await this.claim();
          if (!task) break;
          this.launch(task);
        }
        this.failures = 0;
      } catch (error) {
        this.failures++;
        delay = Math.min(30_000, 500 * 2 ** Math.min(this.failures, 6));
        if (this.failures === 1 || this.failures % 10 === 0) {
          this.logger.warn(`claiming failed ${this.failures}x, retrying in ${delay} ms: ${errorMessage(error)}`);
        }
      }
      if (this.running) await this.idle(delay);
    }
  }

  private launch(task: ClaimedTask): void {
    const running: Promise<void> = task(this.abort.signal)
      .catch((error: unknown) => this.logger.error(`task failed unexpectedly: ${errorMessage(error)}`))
      .finally(() => {
        this.tasks.delete(running);
        this.wake();
      });
    this.tasks.add(running);
  }

  private async maintain(): Promise<void> {
    const maintenance = this.options.maintenance;
    if (!maintenance || Date.now() - this.lastMaintenance < maintenance.everyMs) return;
    this.lastMaintenance = Date.now();
    await maintenance
      .run()
      .catch((error: unknown) => this.logger.warn(`maintenance failed: ${errorMessage(error)}`));
  }

  private idle(ms: number): Promise<void> {
    return this.doorbell.sleep(ms);
  }
}
