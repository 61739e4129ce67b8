import { Logger } from '@nestjs/common';
import { isUnstorable, unstorableMessage, unstorablePath, type JobType } from '@genasset/contracts';
import type { ObjectStore } from '@genasset/storage';
import type { BackendTask } from '../engines/backend-engine';
import { EngineAborted, EngineError, type EngineContext, type EngineJob } from '../engines/engine';
import type { EngineRegistry } from '../engines/engine-registry';
import { applyColourModel, readColourModel } from '../engines/training/learned-colours';
import type { ColourModel } from '../engines/training/model-files';
import { EngineResolution } from './engine-resolution';
import type { InputReader } from './input-reader';
import { JobLease } from './job-lease';
import { JobOutcome } from './job-outcome';
import type { JobReporter } from './job-reporter';
import { runBackendTask } from './backend-task';
import { OutputWriter } from './output-writer';
import type { ClaimedItem, WorkQueueRepository } from './work-queue.repository';

export interface ExecutionSettings {
  leaseMs: number;
  maxAttempts: number;
  retryDelayMs: number;
  progressIntervalMs: number;
}

/** One claimed job being run in this process. */
export interface Running {
  item: ClaimedItem;
  controller: AbortController;
  /** Why the run was stopped: canceled by the client, lost its claim, or the process is stopping. */
  stopReason?: 'canceled' | 'lost' | 'shutdown';
  /** Epoch ms when the claim's lease runs out, as of its last renewal seen by this process. */
  heldUntil?: number;
  /** The backend task of this run, once submitted (or meant to be). */
  backendTask?: BackendTask;
  /** Gives the run's worker slot to other work while the run waits on a remote server (EngineContext.waiting). */
  freeSlot?: () => void;
}

/** Job progress: 0.05 when an engine starts, engine progress mapped into 0.1–0.9, 0.95 when finalizing. */
const START = 0.05;
const span = (fraction: number) => 0.1 + 0.8 * Math.min(1, Math.max(0, fraction));

/**
 * Runs one claimed job in three parts: the engine it resolves to
 * (EngineResolution), the claim kept while it runs (JobLease) and how it ends
 * (JobOutcome). What is left here is the run itself: the engine's inputs,
 * output storage and throttled progress.
 */
export class JobExecution {
  private readonly logger = new Logger('InferenceWorker');
  private readonly engines: EngineResolution;
  private readonly lease: JobLease;
  private readonly outcome: JobOutcome;
  private readonly queue: WorkQueueRepository;

  constructor(
    queue: WorkQueueRepository,
    reporter: JobReporter,
    registry: EngineRegistry,
    private readonly inputs: InputReader,
    private readonly store: ObjectStore,
    private readonly settings: ExecutionSettings,
    /** Whether the job's project exists in this deployment's identity. */
    private readonly tenantKnown: (teamId: string, projectId: string) => Promise<boolean>,
    /** Stops a run of this process (the claim is gone). */
    stop: (jobId: string, reason: Running['stopReason']) => void,
  ) {
    this.engines = new EngineResolution(registry, store);
    this.queue = queue;
    this.lease = new JobLease(queue, reporter, settings.leaseMs, stop);
    this.outcome = new JobOutcome(queue, reporter, this.lease, settings);
  }

  async execute(run: Running): Promise<void> {
    const { item } = run;
    this.lease.began(run);
    const input = item.input;
    // Work for a project this deployment does not know (deployments or test runs sharing a
    // broker) is not ours: reporting on it would touch another deployment's job.
    if (!(await this.tenantKnown(item.teamId, item.projectId))) {
      await this.outcome.ignored(item, `project ${item.projectId} is unknown here`);
      this.logger.warn(
        `job ${item.jobId}: ignored: project ${item.projectId} of team ${item.teamId} is unknown to this deployment`,
      );
      return;
    }
    if (item.attempts > this.settings.maxAttempts) {
      await this.outcome.fail(
        run,
        `${item.mode} could not be completed: the worker running it stopped ${item.attempts - 1} times`,
      );
      return;
    }
    const resolved = this.engines.resolve(item);
    if ('reason' in resolved) {
      await this.outcome.fail(run, resolved.reason);
      return;
    }
    const { engine, backend, learnedColours: learned } = resolved;
    const writer = new OutputWriter(this.store, item.jobId, item.attempts, { engine: resolved.madeBy, mode: item.mode });
    const release = this.lease.keep(run);
    let lastReport = 0;
    let lastProgress = START;
    const job: EngineJob = {
      jobId: item.jobId,
      jobType: item.jobType as JobType,
      mode: item.mode,
      tenant: {
        teamId: item.teamId,
        projectId: item.projectId,
        ...(item.authorId ? { authorId: item.authorId } : {}),
      },
      input,
      ...(item.modelId ? { modelId: item.modelId } : {}),
      attempt: item.attempts,
    };
    let colourModel: Promise<ColourModel> | undefined;
    const ctx: EngineContext = {
      readInput: this.inputs.forJob(job.tenant),
      writeOutput: async (file) => {
        if (run.controller.signal.aborted) throw new EngineAborted();
        if (learned) {
          colourModel ??= readColourModel(this.store, learned);
          return writer.write(await applyColourModel(file, await colourModel));
        }
        return writer.write(file);
      },
      ...(learned
        ? {}
        : {
            writeOutputStream: async (output) => {
              if (run.controller.signal.aborted) throw new EngineAborted();
              return writer.writeStream(output);
            },
          }),
      store: this.store,
      progress: async (fraction) => {
        if (run.controller.signal.aborted) throw new EngineAborted();
        const value = span(fraction);
        const now = Date.now();
        if (value - lastProgress < 0.05 || now - lastReport < this.settings.progressIntervalMs) return;
        lastProgress = value;
        lastReport = now;
        await this.lease.report(run, value);
      },
      signal: run.controller.signal,
      ...(run.freeSlot ? { waiting: run.freeSlot } : {}),
    };
    try {
      await this.lease.report(run, START);
      lastReport = Date.now();
      const result = backend
        ? await runBackendTask(backend, job, ctx, run, {
            queue: this.queue,
            recordHandle: (handle, progress) => this.lease.recordHandle(run, handle, progress),
            persist: (what, write) => this.lease.persist(run, what, write),
          })
        : await engine.run(job, ctx);
      if (run.controller.signal.aborted) throw new EngineAborted();
      const extra = { ...result.extra, engine: result.extra?.engine ?? engine.name };
      refuseUnstorable(engine.name, extra, writer.outputs);
      const reported = await this.outcome.succeeded(run, writer.outputs, extra);
      if (!reported) {
        await writer.discard();
        this.logger.log(`job ${item.jobId}: finished, but no longer ours to report (canceled or taken over)`);
        return;
      }
      this.logger.log(
        `job ${item.jobId}: ${item.mode} done by the ${engine.name} engine (${writer.outputs.length} output(s))`,
      );
    } catch (error) {
      await writer.discard();
      await this.outcome.failed(run, engine.name, error);
    } finally {
      release();
    }
  }
}

/**
 * A result PostgreSQL cannot store (a NUL, half a surrogate pair) would fail its write every time,
 * and the write is retried while the claim lasts, which the heartbeat keeps renewing: the job would
 * stay in progress and hold a slot for ever. It fails the job instead, saying where.
 */
function refuseUnstorable(
  engineName: string,
  extra: Record<string, unknown>,
  outputs: readonly unknown[],
): void {
  const field = unstorablePath({ output: extra, outputs });
  if (field === undefined) return;
  // A bad key would make the reason itself unstorable: then say less.
  const where = isUnstorable(field) ? 'a field name' : field;
  throw new EngineError(`the ${engineName} engine's result cannot be stored: ${unstorableMessage(where)}`);
}
