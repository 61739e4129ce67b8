import { HttpException, Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { errorMessage, JOBS_API, type JobsApi, type TenantRef } from '@genasset/contracts';
import { stepBody } from './run-inputs';
import { definitionOf, RunState, stepJobKey, tenantOf } from './run-state';
import { NOT_YET_MADE } from './run-workflow';
import { WorkflowRunRepository, type RunWithSteps } from './workflow-run.repository';
import { WorkflowSteps } from './workflow-steps';

/** How long a step may stay `starting` before the sweep starts it again (its start was lost with its process). */
const STALLED_AFTER_MS = 60_000;
const SWEEP_EVERY_MS = 30_000;
/** How long a step's start may keep failing for reasons not its own before it fails the run. */
const GIVE_UP_AFTER_MS = 10 * 60_000;

/**
 * Whether a start failed for good, through the step's own fault: its body refused, an asset it
 * binds to gone, a reused key (a 4xx of the generate path). Anything else (a peer unavailable or
 * overloaded, a timeout, a database error) is transient: the start is tried again.
 */
export function refusesStep(error: unknown): boolean {
  const status = error instanceof HttpException ? error.getStatus() : (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * Starts the jobs of a run's `starting` steps, after the transaction that marked them
 * committed: job-service and asset-service are other owners (another process, or the one
 * embedded connection), never called inside a consumer's transaction. Each step's job has an
 * idempotency key (run job + step id), so starting a step twice (the sweep after a crash)
 * yields its one job. A step that cannot start (its bound asset gone, its body refused) fails
 * the run like a failed job would; a start that failed for another reason (refusesStep) is left
 * `starting`, and the sweep starts it again, for up to GIVE_UP_AFTER_MS.
 */
@Injectable()
export class StepStarter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('WorkflowRuns');
  private sweep?: NodeJS.Timeout;

  constructor(
    private readonly runs: WorkflowRunRepository,
    private readonly state: RunState,
    private readonly steps: WorkflowSteps,
    @Inject(JOBS_API) private readonly jobs: JobsApi,
  ) {}

  onModuleInit(): void {
    this.sweep = setInterval(() => void this.restartStalled(), SWEEP_EVERY_MS);
    this.sweep.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweep);
  }

  /** Starts each step (in parallel: they are independent, or they would not be ready together). */
  async start(runJobId: string, stepIds: readonly string[]): Promise<void> {
    await Promise.all(
      stepIds.map((id) =>
        // What fails here (the database while recording the outcome) leaves the step `starting`: the sweep retries it.
        this.startOne(runJobId, id).catch((error: unknown) =>
          this.logger.warn(`run ${runJobId}: step ${id} not started yet, the sweep retries it: ${errorMessage(error)}`),
        ),
      ),
    );
  }

  /** Cancels child jobs of a run that ended (a final one answers 409: nothing to do). */
  async cancel(tenant: TenantRef, jobIds: readonly string[]): Promise<void> {
    await Promise.all(
      jobIds.map((jobId) =>
        this.jobs.cancelJob(tenant, jobId).catch((error: unknown) => {
          if ((error as { status?: number }).status !== 409)
            this.logger.warn(`step job ${jobId} not canceled: ${(error as Error).message}`);
        }),
      ),
    );
  }

  private async startOne(runJobId: string, stepId: string): Promise<void> {
    const run = await this.runs.find(runJobId);
    const row = run?.steps.find((s) => s.stepId === stepId);
    if (!run || !row || row.status !== 'starting') return;
    const made = new Map(run.steps.map((s) => [s.stepId, s.assetIds]));
    const definition = definitionOf(row);
    try {
      const body = stepBody(definition, run.inputs as Record<string, unknown>, (id) => made.get(id), NOT_YET_MADE);
      const prepared = await this.steps.prepare(tenantOf(run), definition, `flow[${row.position}]`, body);
      const job = await this.steps.start(prepared, stepJobKey(runJobId, stepId), runJobId);
      const stillRunning = await this.runs.transaction(async (tx) => {
        const locked = await this.runs.lock(tx, runJobId);
        await this.runs.moveSteps(tx, runJobId, [stepId], ['starting'], 'processing', { childJobId: job.jobId });
        await this.runs.setChildJob(tx, runJobId, stepId, job.jobId);
        // The step's job shows on the run's metadata.flow.
        if (locked?.status === 'running') await this.state.report(tx, runJobId);
        return locked?.status === 'running';
      });
      // The run ended while this step's job was being created: that job has no run to serve.
      if (!stillRunning) await this.cancel(tenantOf(run), [job.jobId]);
      else this.logger.log(`run ${runJobId}: step ${stepId} started as ${job.jobId}`);
    } catch (error) {
      const reason = errorMessage(error) || 'the step could not start';
      const givenUp = Date.now() - row.updatedAt.getTime() > GIVE_UP_AFTER_MS;
      if (!refusesStep(error) && !givenUp) {
        // Not the step's fault (a peer unavailable, a timeout, the database under load): the step
        // stays `starting` and the sweep starts it again; its idempotency key keeps it one job.
        this.logger.warn(`run ${runJobId}: step ${stepId} not started yet, the sweep retries it: ${reason}`);
        return;
      }
      this.logger.warn(`run ${runJobId}: step ${stepId} could not start: ${reason}`);
      await this.failRun(run, stepId, givenUp && !refusesStep(error) ? `it could not start for ${GIVE_UP_AFTER_MS / 60_000} minutes: ${reason}` : reason);
    }
  }

  /** The step cannot start: it fails the run (steps not started skipped, the others canceled). */
  private async failRun(run: RunWithSteps, stepId: string, reason: string): Promise<void> {
    const runJobId = run.jobId;
    const toCancel = await this.runs.transaction(async (tx) => {
      const locked = await this.runs.lock(tx, runJobId);
      if (!locked) return [];
      const moved = await this.runs.moveSteps(tx, runJobId, [stepId], ['starting'], 'failure', { failureReason: reason });
      return moved && locked.status === 'running' ? this.state.fail(tx, locked, stepId, reason) : [];
    });
    await this.cancel(tenantOf(run), toCancel);
  }

  private async restartStalled(): Promise<void> {
    try {
      const stalled = await this.runs.stalled(new Date(Date.now() - STALLED_AFTER_MS), 50);
      for (const step of stalled) await this.start(step.jobId, [step.stepId]);
    } catch (error) {
      this.logger.warn(`stalled workflow steps not restarted: ${(error as Error).message}`);
    }
  }
}
