import { randomUUID } from 'node:crypto';
import type { Engine, EngineContext, EngineJob, EngineResult } from './engine';

/**
 * Work submitted to a backend (an inference server that runs it asynchronously): the id the
 * worker submitted it under, chosen and stored before submitting (the intent), and the backend's
 * own handle once it accepted the work (ComfyUI's prompt_id, a Replicate prediction id).
 */
export interface BackendTask {
  submission: string;
  handle?: string;
}

/** Where a submission is on the backend, as looked up after a restart. */
export type TaskWhereabouts =
  | { state: 'queued' | 'running' | 'finished'; handle: string }
  | { state: 'missing' };

/**
 * An engine whose work runs on a backend, asynchronously. The runner, not the engine, keeps the
 * task durable (work-queue columns): it records the intent, calls `submit`, stores the handle in
 * one statement with the work item, and after a crash or restart calls `locate` then `collect`
 * instead of submitting again. `run` (the one-call form) serves tests and tools without a queue.
 *
 * What another backend engine (openai, replicate, cog, http) provides:
 * - `submit`: send the work under `submission` (an idempotency key where the server has one: Cog's
 *   `PUT /predictions/{id}`; Replicate has none, so a lookup by the id put in the input/webhook URL);
 * - `locate`: find it by handle or submission (404 = missing);
 * - `collect`: wait (poll, or a callback the runner hands over later) and store the outputs;
 * - `cancel`: stop it (`POST /predictions/{id}/cancel`). Synchronous APIs (OpenAI-compatible)
 *   may keep `run` only: nothing to resume there.
 */
/**
 * An engine that runs its routes on an inference server of INFERENCE_BACKENDS_FILE: what the
 * start-up log, /readyz and the outputs' metadata need of it. Synchronous APIs (OpenAI-compatible)
 * are only this: their one-call `run` respects the backend's concurrency and timeouts, nothing to
 * resume. Asynchronous ones are {@link BackendEngine}s.
 */
export interface ServerEngine extends Engine {
  readonly kind: 'backend' | 'sync-backend';
  /** The protocol (`comfyui`, `openai`): what outputs' `metadata.engine` and the job's `output.engine` say. */
  readonly type: string;
  /** The backend's name in INFERENCE_BACKENDS_FILE (also the engine's name). */
  readonly name: string;
  /** For the start-up log: type, URL, routes, how it authenticates — never a secret. */
  readonly description: string;
  /** How long a readiness check of the backend may take. */
  readonly checkTimeoutMs: number;
  /** What stops the backend from running its routes (ComfyUI: node types its workflows lack); throws when it cannot be reached. */
  problems(): Promise<string[]>;
}

export function isServerEngine(engine: Engine): engine is ServerEngine {
  const kind = (engine as Partial<ServerEngine>).kind;
  return kind === 'backend' || kind === 'sync-backend';
}

export interface BackendEngine extends ServerEngine {
  readonly kind: 'backend';
  /** Resolves when one of the backend's concurrency slots is this job's; release it when done. */
  acquire(signal: AbortSignal): Promise<() => void>;
  /** Uploads the inputs and submits under `submission`; resolves with the backend's handle. */
  submit(job: EngineJob, ctx: EngineContext, submission: string): Promise<string>;
  /** Finds a submission again (after a crash mid-submit, or a restart). */
  locate(task: BackendTask): Promise<TaskWhereabouts>;
  /** Waits for the submitted work to end, reporting progress, and stores its outputs. */
  collect(job: EngineJob, ctx: EngineContext, task: Required<BackendTask>): Promise<EngineResult>;
  /** Best effort: stops the work on the backend (running or still queued). */
  cancel(task: BackendTask): Promise<void>;
}

export function isBackendEngine(engine: Engine): engine is BackendEngine {
  return (engine as Partial<BackendEngine>).kind === 'backend';
}

export function newSubmissionId(): string {
  return randomUUID();
}

/** The one-call form of a backend engine: submit, then collect, without durability. */
export async function runOnce(engine: BackendEngine, job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
  const release = await engine.acquire(ctx.signal);
  try {
    const submission = newSubmissionId();
    const handle = await engine.submit(job, ctx, submission);
    return await engine.collect(job, ctx, { submission, handle });
  } finally {
    release();
  }
}

/** A counting semaphore: a backend's concurrency limit within one process. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(signal: AbortSignal): Promise<() => void> {
    if (this.free > 0) this.free--;
    else
      await new Promise<void>((resolve, reject) => {
        const take = () => {
          signal.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const i = this.waiting.indexOf(take);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        this.waiting.push(take);
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
