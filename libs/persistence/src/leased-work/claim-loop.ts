import { errorMessage } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import type { DatabaseConnection } from '../database';
import { WakeSignal } from './wake-signal';

export interface ClaimLoopOptions {
  /** For logs. */
  name: string;
  /** Safety-net poll: work of other replicas, missed notifications, back-offs and leases running out. */
  pollIntervalMs: number;
  /** NOTIFY channel that announces new work (sent in the transaction that queues it); with `db`. */
  channel?: string;
  /** Where to LISTEN; absent (or LISTEN failing): polling only. */
  db?: Pick<DatabaseConnection, 'listen'>;
  /** After a failed round: `baseMs · 2^failures` (the exponent capped at 6), at most `maxMs`. */
  backoff?: { baseMs: number; maxMs: number };
  /** Periodic housekeeping (purges of finished rows), run at the top of a round when due; failures are logged. */
  maintenance?: { everyMs: number; run(): Promise<unknown> };
}

/**
 * One round of a queue's loop: claims what there is room for and hands it on.
 * Resolves true to go again at once (it filled its batch: more may be due),
 * false to sleep until a wake-up or the poll. A throw backs off.
 */
export type ClaimRound = () => Promise<boolean>;

/**
 * The loop every database work queue runs (leased work: claims with FOR
 * UPDATE SKIP LOCKED under a lease, LeaseTable): rounds of claims that sleep
 * until NOTIFY from the transaction that queued work, an explicit `wake()`
 * (a finished task made room, a retry fell due) or the poll, and back off
 * while claiming fails. No claim runs while nothing can have changed.
 */
export class ClaimLoop {
  private readonly logger: Logger;
  private readonly doorbell = new WakeSignal();
  private running = false;
  private loop?: Promise<void>;
  private unlisten?: () => Promise<void>;
  private lastMaintenance = 0;
  private failures = 0;
  private subscribed = false;
  /** wakeAt timers by due time (rounded up to 50 ms, so a burst of retries shares one). */
  private readonly dueTimers = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly options: ClaimLoopOptions,
    private readonly round: ClaimRound,
    /** Called on each NOTIFY of `channel`, before the loop wakes. */
    private readonly onNotify?: () => void,
  ) {
    this.logger = new Logger(options.name);
  }

  /** Whether NOTIFY of new work reaches this loop (else only polls and wake-ups do). */
  get listening(): boolean {
    return this.subscribed;
  }

  get active(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const { db, channel } = this.options;
    if (db && channel) {
      try {
        // A lost subscription that is back (onGap) may have missed notifications: look once, as on one.
        const notified = () => {
          this.onNotify?.();
          this.wake();
        };
        this.unlisten = await db.listen(channel, notified, notified);
        this.subscribed = true;
      } catch (error) {
        this.logger.warn(`LISTEN ${channel} failed, relying on polling: ${errorMessage(error)}`);
      }
    }
    this.loop = this.run();
  }

  /** Stops claiming: resolves once the round in progress (if any) has ended, and unsubscribes. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of this.dueTimers.values()) clearTimeout(timer);
    this.dueTimers.clear();
    this.wake();
    await this.loop;
    this.subscribed = false;
    await this.unlisten?.().catch(() => undefined);
  }

  /** Claim now: ends the current sleep, or the next one if a round is in progress. */
  wake(): void {
    this.doorbell.wake();
  }

  /**
   * Claim when work this process put off falls due (a retry at `at`, epoch ms, to the nearest
   * 50 ms), not at the next poll: the poll can then be long. `then` runs just before the wake.
   */
  wakeAt(at: number, then?: () => void): void {
    if (!this.running) return;
    const bucket = Math.ceil(at / 50) * 50;
    if (this.dueTimers.has(bucket)) return;
    const timer = setTimeout(
      () => {
        this.dueTimers.delete(bucket);
        then?.();
        this.wake();
      },
      Math.max(0, bucket - Date.now() + 5),
    );
    timer.unref();
    this.dueTimers.set(bucket, timer);
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.doorbell.take();
      let again = false;
      let delay = this.options.pollIntervalMs;
      try {
        await this.maintain();
        again = await this.round();
        if (this.failures > 0) this.logger.log(`claiming recovered after ${this.failures} failure(s)`);
        this.failures = 0;
      } catch (error) {
        this.failures++;
        const { baseMs, maxMs } = this.options.backoff ?? { baseMs: 100, maxMs: 5_000 };
        delay = Math.min(maxMs, baseMs * 2 ** Math.min(this.failures, 6));
        if (this.failures === 1 || this.failures % 10 === 0) {
          this.logger.warn(`claiming failed ${this.failures}x, retrying in ${delay} ms: ${errorMessage(error)}`);
        }
      }
      if (again || !this.running) continue;
      await this.doorbell.sleep(delay);
    }
  }

  private async maintain(): Promise<void> {
    const maintenance = this.options.maintenance;
    if (!maintenance || Date.now() - this.lastMaintenance < maintenance.everyMs) return;
    this.lastMaintenance = Date.now();
    await maintenance
      .run()
      .catch((error: unknown) => this.logger.warn(`maintenance failed: ${errorMessage(error)}`));
  }
}

/**
 * A claimed piece of work. `signal` aborts when the process stops (after the
 * drain timeout, if any): the task must give its claim back (another replica
 * takes it at once) rather than finish. `freeSlot()` says the task now only
 * waits on something elsewhere (a remote server's answer): its slot goes to
 * other work at once, while the task itself runs on (and still counts for
 * the drain at `stop()`).
 */
export type ClaimedTask = (signal: AbortSignal, freeSlot: () => void) => Promise<void>;

export interface TaskLoopOptions extends ClaimLoopOptions {
  /** Tasks run at once by this process. */
  concurrency: number;
  /** How long `stop()` lets tasks in flight run before aborting them (default 0: at once). */
  drainTimeoutMs?: number;
}

/**
 * A ClaimLoop for queues whose rows are independent tasks (archives, upload
 * imports, inference jobs): claims up to the free slots in one statement, runs
 * each claimed row's task, and when one ends claims again at once only if work
 * may be waiting — the last claim filled every slot, a NOTIFY or `wake()` came
 * since, or no NOTIFY can come — so an idle queue costs no claim per task.
 * A task that frees its slot early (it only waits on a remote server) makes
 * room the same way, and runs on outside the `concurrency` count.
 */
export class TaskLoop {
  private readonly logger: Logger;
  private readonly loop: ClaimLoop;
  private readonly tasks = new Set<Promise<void>>();
  /** Tasks holding one of the `concurrency` slots (the others have freed theirs: `ClaimedTask`). */
  private occupied = 0;
  private readonly abort = new AbortController();
  /** Whether queued work may be waiting (see the class comment); cleared just before each claim. */
  private mayHaveWork = true;

  constructor(
    private readonly options: TaskLoopOptions,
    /** Claims up to `room` rows; [] when nothing is due. */
    private readonly claim: (room: number) => Promise<ClaimedTask[]>,
  ) {
    this.logger = new Logger(options.name);
    this.loop = new ClaimLoop(options, () => this.round(), () => (this.mayHaveWork = true));
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  /** Stops claiming; lets tasks in flight run up to the drain timeout, then aborts them (they give their claims back) and waits for them. */
  async stop(): Promise<void> {
    if (!this.loop.active) return;
    await this.loop.stop();
    const all = () => Promise.allSettled([...this.tasks]);
    const drainMs = this.options.drainTimeoutMs ?? 0;
    if (drainMs > 0 && this.tasks.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        all().then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), drainMs))),
      ]);
      clearTimeout(timer);
      if (!drained) this.logger.warn(`giving ${this.tasks.size} task(s) still running back to the queue at shutdown`);
    }
    this.abort.abort();
    await all();
  }

  /** New work may be due (queued in this process, or a slot freed elsewhere): claim now. */
  wake(): void {
    this.mayHaveWork = true;
    this.loop.wake();
  }

  /** Work this process put off (a retry) falls due at `at` (epoch ms): claim then (ClaimLoop.wakeAt). */
  wakeAt(at: number): void {
    this.loop.wakeAt(at, () => (this.mayHaveWork = true));
  }

  get inFlight(): number {
    return this.tasks.size;
  }

  private async round(): Promise<boolean> {
    const room = this.options.concurrency - this.occupied;
    if (room <= 0) return false;
    // Cleared before the claim: a NOTIFY arriving meanwhile sets it again.
    this.mayHaveWork = false;
    let claimed: ClaimedTask[];
    try {
      claimed = await this.claim(room);
    } catch (error) {
      this.mayHaveWork = true;
      throw error;
    }
    for (const task of claimed) this.launch(task);
    const full = claimed.length >= room;
    if (full) this.mayHaveWork = true;
    return full;
  }

  private launch(task: ClaimedTask): void {
    this.occupied++;
    let holdsSlot = true;
    const freeSlot = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      this.occupied--;
      // Without NOTIFY (LISTEN failed, no database connection) nothing else says when work came.
      if (this.mayHaveWork || !this.loop.listening) this.loop.wake();
    };
    const running: Promise<void> = task(this.abort.signal, freeSlot)
      .catch((error: unknown) => this.logger.error(`task failed unexpectedly: ${errorMessage(error)}`))
      .finally(() => {
        this.tasks.delete(running);
        freeSlot();
      });
    this.tasks.add(running);
  }
}
