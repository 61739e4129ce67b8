import { Logger } from '@nestjs/common';
import { errorMessage as message } from '@genasset/contracts';
import { EngineAborted, EngineError } from '../engines/engine';
import type { ExecutionSettings, Running } from './job-execution';
import type { JobLease } from './job-lease';
import type { JobReporter } from './job-reporter';
import type { OutputWriter } from './output-writer';
import { TransientError } from './transient-error';
import type { ClaimedItem, WorkQueueRepository } from './work-queue.repository';

/**
 * How a run ends, recorded with its report: each ending is one statement
 * (WorkQueueRepository.finishReporting) that ends the claim together with the
 * job's report (atomic), only while the claim is still this worker's. Decides what a failure means: a reason for the
 * client, a retry later, or (stopped runs) nothing at all.
 */
export class JobOutcome {
  private readonly logger = new Logger('InferenceWorker');

  constructor(
    private readonly queue: WorkQueueRepository,
    private readonly reporter: JobReporter,
    private readonly lease: JobLease,
    private readonly settings: Pick<ExecutionSettings, 'maxAttempts' | 'retryDelayMs'>,
  ) {}

  /** Work of a tenant this deployment does not know: ended without a report. */
  async ignored(item: ClaimedItem, reason: string): Promise<void> {
    await this.queue.finish(item, 'ignored', reason);
  }

  /** The engine's outputs and result; false when the claim is gone (nothing was reported). */
  succeeded(run: Running, outputs: OutputWriter['outputs'], extra: Record<string, unknown>): Promise<boolean> {
    const { item } = run;
    return this.lease.persist(run, 'the result', () =>
      this.queue.finishReporting(item, 'done', undefined, this.reporter.finishedEvents(item, outputs, extra)),
    );
  }

  /** After an engine threw: report, retry later, or give the claim back, by what happened. */
  async failed(run: Running, engineName: string, error: unknown): Promise<void> {
    const { item } = run;
    if (run.controller.signal.aborted || error instanceof EngineAborted) {
      if (run.stopReason === 'shutdown') await this.queue.release(item).catch(() => undefined);
      this.logger.log(`job ${item.jobId}: stopped (${run.stopReason ?? 'aborted'})`);
      return;
    }
    if (error instanceof EngineError) {
      await this.fail(run, error.message);
      return;
    }
    this.logger.error(
      `job ${item.jobId}: the ${engineName} engine failed (attempt ${item.attempts} of ${this.settings.maxAttempts}): ${message(error)}`,
    );
    const reason =
      error instanceof TransientError
        ? error.reason
        : `an internal error occurred in the ${engineName} engine`;
    if (item.attempts < this.settings.maxAttempts) {
      await this.lease.persist(run, 'the retry', () =>
        this.queue.retryLater(item, this.settings.retryDelayMs * 2 ** (item.attempts - 1), message(error)),
      );
      return;
    }
    await this.fail(run, `${item.mode} failed after ${item.attempts} attempts: ${reason}`);
  }

  /** Ends the claim as failed and reports the reason, in one statement (nothing when the claim is gone). */
  async fail(run: Running, reason: string): Promise<void> {
    const { item } = run;
    const reported = await this.lease.persist(run, 'the failure', () =>
      this.queue.finishReporting(item, 'failed', reason, this.reporter.failedEvents(item.jobId, reason)),
    );
    if (reported) this.logger.log(`job ${item.jobId}: failed: ${reason}`);
  }
}
