import { Logger } from '@nestjs/common';
import { newSubmissionId, type BackendEngine, type BackendTask } from '../engines/backend-engine';
import { EngineAborted, EngineError, type EngineContext, type EngineJob, type EngineResult } from '../engines/engine';
import type { Running } from './job-execution';
import type { WorkQueueRepository } from './work-queue.repository';

export interface BackendTaskDeps {
  queue: Pick<WorkQueueRepository, 'recordIntent' | 'status'>;
  /** Stores the backend's handle with a lease renewal and a progress report (JobLease.recordHandle); false when the claim is gone. */
  recordHandle(handle: string, progress: number): Promise<boolean>;
  /** A write that must not be lost to a short database outage (JobLease.persist). */
  persist<T>(what: string, write: () => Promise<T>): Promise<T>;
}

/** Job progress when the backend has accepted the work (the engine's own progress follows, mapped into 0.1–0.9). */
const SUBMITTED = 0.1;

const logger = new Logger('InferenceWorker');

/**
 * Runs a job on a backend exactly once, across crashes and restarts (docs/engines.md, "Backends").
 *
 * 1. Intent: before anything reaches the backend, the work item records the backend and a fresh
 *    submission id (its own statement, guarded by the claim).
 * 2. Submit under that id (ComfyUI: it is the prompt_id and the client_id, and it rides in the
 *    prompt's extra_data), then store the backend's handle with the work item in one statement,
 *    together with the job's progress report (the outbox write and the row change are atomic).
 * 3. Collect: wait for the end (websocket, history), store the outputs.
 *
 * A later run of the job (a crash, a lease taken over, a transient failure, a shutdown) finds the
 * task on the claimed row and never submits blindly: with a handle it resumes collecting — and a
 * backend that no longer knows the handle lost the job, which fails it; with only an intent it
 * looks the submission up first (the worker may have died after the backend accepted it but
 * before the handle was stored) and submits only when the backend has never seen it, under the
 * same id.
 */
export async function runBackendTask(
  engine: BackendEngine,
  job: EngineJob,
  ctx: EngineContext,
  run: Running,
  deps: BackendTaskDeps,
): Promise<EngineResult> {
  const { item } = run;
  const release = await engine.acquire(ctx.signal).catch(() => {
    throw new EngineAborted();
  });
  let task: BackendTask | undefined = item.backendTask?.backend === engine.name ? { ...item.backendTask } : undefined;
  try {
    if (task) {
      const where = await engine.locate(task);
      if (where.state === 'missing' && task.handle)
        throw new EngineError(
          `the backend ${engine.name} lost the job: it no longer knows ${task.handle} (neither queued, running nor finished there)`,
        );
      if (where.state !== 'missing') {
        if (!task.handle) await record(where.handle);
        task.handle = where.handle;
        logger.log(`job ${item.jobId}: resuming ${engine.name} task ${where.handle} (${where.state}) instead of submitting again`);
      }
    }
    if (!task) {
      task = { submission: newSubmissionId() };
      const intended = await deps.persist('the submission intent', () => deps.queue.recordIntent(item, engine.name, task!.submission));
      if (!intended) throw new EngineAborted();
    }
    run.backendTask = task;
    if (!task.handle) {
      task.handle = await engine.submit(job, ctx, task.submission);
      await record(task.handle);
    }
    // Submitted and its handle stored: the job waits on the backend (callback or polling), not on a worker slot.
    ctx.waiting?.();
    return await engine.collect(job, ctx, { submission: task.submission, handle: task.handle });
  } catch (error) {
    if (run.stopReason === 'canceled' && task) await cancel(task);
    throw error;
  } finally {
    release();
  }

  /** Stores the handle with the work item and reports progress, in one statement; a lost claim stops the run. */
  async function record(handle: string): Promise<void> {
    if (await deps.recordHandle(handle, SUBMITTED)) return;
    // Canceled meanwhile: the work just submitted is nobody's, stop it. Taken over: the new holder finds it by its submission id.
    if ((await deps.queue.status(item.jobId)) === 'canceled') {
      run.stopReason = 'canceled';
      await cancel({ submission: task!.submission, handle });
    }
    throw new EngineAborted();
  }

  function cancel(t: BackendTask): Promise<void> {
    return cancelBackendTask(engine, item.jobId, t);
  }
}

/**
 * Best effort: stops a job's task on its backend (a cancel, by the worker running the job or, when
 * no live worker holds it, by the intake that recorded the cancel). Never throws: the job is
 * canceled either way, and a backend that cannot be reached has nothing to stop or will be told by
 * the running worker.
 */
export async function cancelBackendTask(engine: BackendEngine, jobId: string, t: BackendTask): Promise<void> {
  try {
    await engine.cancel(t);
    logger.log(`job ${jobId}: canceled ${engine.name} task ${t.handle ?? t.submission}`);
  } catch (error) {
    logger.warn(`job ${jobId}: canceling ${engine.name} task ${t.handle ?? t.submission} failed: ${(error as Error).message}`);
  }
}
