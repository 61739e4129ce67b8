import { Logger } from '@nestjs/common';
import { isUnstorable, unstorableMessage, unstorablePath, type JobType, errorMessage } from '@genasset/contracts';
import type { ObjectStore } from '@genasset/storage';
import { isBackendEngine, isServerEngine, type BackendTask } from '../engines/backend-engine';
import { EngineAborted, EngineError, type EngineContext, type EngineJob } from '../engines/engine';
import { noEngineReason, type EngineRegistry } from '../engines/engine-registry';
import { EXPORT_ROUTE, routeOf } from '../engines/modes';
import { applyColourModel, readColourModel } from '../engines/training/learned-colours';
import { exportModel } from '../engines/training/model-export';
import type { ColourModel } from '../engines/training/model-files';
import type { Engine } from '../engines/engine';
import type { InferencePrisma } from '../inference.prisma';
import type { InputReader } from './input-reader';
import type { JobReporter } from './job-reporter';
import { runBackendTask } from './backend-task';
import { OutputWriter } from './output-writer';
import { TransientError } from './transient-error';
import { whileHeld } from './while-held';
import type { ClaimedItem, WorkQueue } from './work-queue';

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
  done: Promise<void>;
  /** Epoch ms when the claim's lease runs out, as of its last renewal seen by this process. */
  heldUntil?: number;
  /** The backend task of this run, once submitted (or meant to be). */
  backendTask?: BackendTask;
}

/** Job progress: 0.05 when an engine starts, engine progress mapped into 0.1–0.9, 0.95 when finalizing. */
const START = 0.05;
const span = (fraction: number) => 0.1 + 0.8 * Math.min(1, Math.max(0, fraction));

/**
 * Runs one claimed job: resolves its engine, gives it inputs, output storage
 * and throttled progress, renews the lease, and ends the claim together with
 * the job's report in one statement (atomic) — only while the claim is still this
 * worker's. Decides what a failure means: a reason for the client, a retry
 * later, or (stopped runs) nothing at all.
 */
export class JobExecution {
  private readonly logger = new Logger('InferenceWorker');

  constructor(
    private readonly prisma: InferencePrisma,
    private readonly queue: WorkQueue,
    private readonly reporter: JobReporter,
    private readonly registry: EngineRegistry,
    private readonly inputs: InputReader,
    private readonly store: ObjectStore,
    private readonly settings: ExecutionSettings,
    /** Whether the job's project exists in this deployment's identity. */
    private readonly tenantKnown: (teamId: string, projectId: string) => Promise<boolean>,
    /** Stops a run of this process (the claim is gone). */
    private readonly stop: (jobId: string, reason: Running['stopReason']) => void,
  ) {}

  async execute(run: Running): Promise<void> {
    const { item } = run;
    run.heldUntil = Date.now() + this.settings.leaseMs;
    const input = item.input;
    const route = routeOf(item.mode, input);
    // Work for a project this deployment does not know (deployments or test runs sharing a
    // broker) is not ours: reporting on it would touch another deployment's job.
    if (!(await this.tenantKnown(item.teamId, item.projectId))) {
      await this.queue.finish(this.prisma, item, 'ignored', `project ${item.projectId} is unknown here`);
      this.logger.warn(
        `job ${item.jobId}: ignored: project ${item.projectId} of team ${item.teamId} is unknown to this deployment`,
      );
      return;
    }
    if (item.attempts > this.settings.maxAttempts) {
      await this.fail(
        run,
        `${item.mode} could not be completed: the worker running it stopped ${item.attempts - 1} times`,
      );
      return;
    }
    // Model exports are not an engine choice: the worker packs the files itself.
    const resolved =
      route === EXPORT_ROUTE
        ? {
            engine: {
              name: 'export',
              supports: () => true,
              run: (j, c) => exportModel(j, c, this.store),
            } as Engine,
          }
        : this.registry.resolveFor(route, input);
    if (!resolved.engine) {
      await this.fail(run, ('reason' in resolved && resolved.reason) || noEngineReason(route));
      return;
    }
    const engine = resolved.engine;
    const backend = isBackendEngine(engine) ? engine : undefined;
    const server = isServerEngine(engine) ? engine : undefined;
    // Outputs of a backend say which protocol made them (`comfyui`); the backend's name is in their metadata.
    const writer = new OutputWriter(this.store, item.jobId, item.attempts, {
      engine: server?.type ?? engine.name,
      mode: item.mode,
    });
    const heartbeat = setInterval(
      () => void this.renew(run),
      Math.max(250, Math.floor(this.settings.leaseMs / 3)),
    );
    heartbeat.unref();
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
    // A generation naming a model the built-in trainer trained: its image outputs take the learned colours.
    // An http engine runs its own model, so its outputs are left as they are.
    const learned = engine.name === 'http' || server ? undefined : learnedColoursKey(input);
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
        await this.report(run, value);
      },
      signal: run.controller.signal,
    };
    try {
      await this.report(run, START);
      lastReport = Date.now();
      const result = backend
        ? await runBackendTask(backend, job, ctx, run, {
            prisma: this.prisma,
            queue: this.queue,
            reporter: this.reporter,
            leaseMs: this.settings.leaseMs,
            persist: (what, write) => this.persist(run, what, write),
          })
        : await engine.run(job, ctx);
      if (run.controller.signal.aborted) throw new EngineAborted();
      const extra = { ...result.extra, engine: result.extra?.engine ?? engine.name };
      refuseUnstorable(engine.name, extra, writer.outputs);
      const reported = await this.persist(run, 'the result', () =>
        this.reporter.reportIf(
          this.prisma,
          this.queue.ending(item, 'done'),
          this.reporter.finishedEvents(item, writer.outputs, extra),
        ),
      );
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
      await this.failed(run, engine.name, error);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** After an engine threw: report, retry later, or give the claim back, by what happened. */
  private async failed(run: Running, engineName: string, error: unknown): Promise<void> {
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
      `job ${item.jobId}: the ${engineName} engine failed (attempt ${item.attempts} of ${this.settings.maxAttempts}): ${errorMessage(error)}`,
    );
    const reason =
      error instanceof TransientError
        ? error.reason
        : `an internal error occurred in the ${engineName} engine`;
    if (item.attempts < this.settings.maxAttempts) {
      await this.persist(run, 'the retry', () =>
        this.queue.retryLater(item, this.settings.retryDelayMs * 2 ** (item.attempts - 1), errorMessage(error)),
      );
      return;
    }
    await this.fail(run, `${item.mode} failed after ${item.attempts} attempts: ${reason}`);
  }

  /** Ends the claim as failed and reports the reason, in one statement (nothing when the claim is gone). */
  private async fail(run: Running, reason: string): Promise<void> {
    const { item } = run;
    const reported = await this.persist(run, 'the failure', () =>
      this.reporter.reportIf(
        this.prisma,
        this.queue.ending(item, 'failed', reason),
        this.reporter.failedEvents(item.jobId, reason),
      ),
    );
    if (reported) this.logger.log(`job ${item.jobId}: failed: ${reason}`);
  }

  /**
   * A write that ends the run, tried again while the database is unreachable for as long as the claim
   * lasts (whileHeld): an outage shorter than the lease neither loses the run's result nor leaves the
   * job waiting for the lease to lapse.
   */
  private persist<T>(run: Running, what: string, write: () => Promise<T>): Promise<T> {
    return whileHeld(write, {
      heldUntil: () => run.heldUntil ?? 0,
      signal: run.controller.signal,
      onRetry: (error, failures) => {
        if (failures === 1)
          this.logger.warn(
            `job ${run.item.jobId}: recording ${what} failed, trying again while the claim lasts: ${errorMessage(error)}`,
          );
      },
    });
  }

  /** Reports progress (in-progress) with a lease renewal; a lost claim stops the run. */
  private async report(run: Running, progress: number): Promise<void> {
    const renewedAt = Date.now();
    const held = await this.reporter.reportIf(
      this.prisma,
      this.queue.renewal(run.item, this.settings.leaseMs),
      this.reporter.progressEvents(run.item.jobId, 'in-progress', progress),
    );
    this.renewed(run, held, renewedAt);
  }

  private async renew(run: Running): Promise<void> {
    try {
      const renewedAt = Date.now();
      this.renewed(run, await this.queue.renew(this.prisma, run.item, this.settings.leaseMs), renewedAt);
    } catch (error) {
      this.logger.warn(`job ${run.item.jobId}: lease renewal failed: ${errorMessage(error)}`);
    }
  }

  /** After a renewal sent at `at`: the lease runs a full term from then, or the claim is gone. */
  private renewed(run: Running, held: boolean, at: number): void {
    if (held) run.heldUntil = at + this.settings.leaseMs;
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

/** `input.learnedModel.colours`: the key of the model's colour statistics, only under the job's project's models. */
function learnedColoursKey(input: Record<string, unknown>): string | undefined {
  const learned = input.learnedModel as { colours?: unknown; projectId?: unknown } | undefined;
  return typeof learned?.colours === 'string' && learned.colours.startsWith('models/')
    ? learned.colours
    : undefined;
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
