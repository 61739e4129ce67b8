import { errorMessage } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import { TaskLoop, type ClaimedTask, type DatabaseConnection } from '@genasset/persistence';
import { JobExecution, type ExecutionSettings, type Running } from './job-execution';
import { CANCEL_CHANNEL, WORK_CHANNEL, type ClaimedItem, type WorkQueueRepository } from './work-queue.repository';

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
 * while it still holds the claim. Woken by NOTIFY when work is queued, when a
 * retry it queued falls due, and by a poll for anything missed (another
 * worker's retries, a dead worker's lease);
 * the loop is the leased-work TaskLoop of libs/persistence.
 */
export class WorkRunner {
  private readonly logger = new Logger('InferenceWorker');
  private readonly running = new Map<string, Running>();
  private readonly loop: TaskLoop;
  private unlistenCancel?: () => Promise<void>;
  private readonly execution: JobExecution;

  constructor(
    private readonly db: DatabaseConnection | undefined,
    private readonly queue: WorkQueueRepository,
    private readonly settings: RunnerSettings,
    execution: (stop: (jobId: string, reason: Running['stopReason']) => void) => JobExecution,
  ) {
    this.execution = execution((jobId, reason) => this.stopRun(jobId, reason));
    this.loop = new TaskLoop(
      {
        name: 'InferenceWorker',
        concurrency: settings.concurrency,
        pollIntervalMs: settings.pollIntervalMs,
        drainTimeoutMs: settings.drainTimeoutMs,
        ...(db ? { db, channel: WORK_CHANNEL } : {}),
        maintenance: { everyMs: 10 * 60_000, run: () => this.purge() },
      },
      async (room) => (await queue.claim(room, settings.leaseMs)).map((item) => this.task(item)),
    );
    queue.onRetryQueued((dueAt) => this.loop.wakeAt(dueAt));
  }

  async start(): Promise<void> {
    if (this.db && !this.unlistenCancel) {
      try {
        this.unlistenCancel = await this.db.listen(CANCEL_CHANNEL, (jobId) => this.stopRun(jobId, 'canceled'));
      } catch (error) {
        this.logger.warn(`LISTEN ${CANCEL_CHANNEL} failed: a canceled job runs on until its next lease renewal: ${errorMessage(error)}`);
      }
    }
    await this.loop.start();
  }

  /** Stops claiming; lets running jobs finish within the drain timeout, then stops the rest and gives them back. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.unlistenCancel?.().catch(() => undefined);
    this.unlistenCancel = undefined;
  }

  wake(): void {
    this.loop.wake();
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

  private task(item: ClaimedItem): ClaimedTask {
    const controller = new AbortController();
    const entry: Running = { item, controller };
    this.running.set(item.jobId, entry);
    return async (stopping, freeSlot) => {
      entry.freeSlot = freeSlot;
      const onStop = () => this.stopRun(item.jobId, 'shutdown');
      stopping.addEventListener('abort', onStop);
      try {
        await this.execution.execute(entry);
      } catch (error) {
        this.logger.error(`job ${item.jobId}: ${errorMessage(error)}`);
      } finally {
        stopping.removeEventListener('abort', onStop);
        this.running.delete(item.jobId);
      }
    };
  }

  private async purge(): Promise<void> {
    const purged = await this.queue.purge(this.settings.retentionMs);
    if (purged > 0) this.logger.log(`purged ${purged} finished work item(s)`);
  }
}
