import { Injectable, Logger } from '@nestjs/common';
import { JobCanceled, JobFailed, JobSucceeded, type EventEnvelope, type JobLifecycleData } from '@genasset/contracts';
import type { EventContext } from '@genasset/messaging';
import { parseStepJobKey, RunState, tenantOf } from './run-state';
import { StepStarter } from './step-starter';
import { ACTIVE_STEP, WorkflowRunRepository, type Tx } from './workflow-run.repository';

/** Whether a lifecycle fact is one of a workflow step's job (by its idempotency key). */
export const isStepFact = (envelope: EventEnvelope<JobLifecycleData>) => parseStepJobKey(envelope.data.idempotencyKey) !== undefined;

/**
 * The end of a step's job (JobFactsController hands its facts here), in the consumer's
 * transaction under the run's row lock: its assets feed the next steps, or its failure (or
 * cancel) fails the run. Starts and cancels happen once this commits (StepStarter).
 */
@Injectable()
export class StepFacts {
  private readonly logger = new Logger('WorkflowRuns');

  constructor(
    private readonly runs: WorkflowRunRepository,
    private readonly state: RunState,
    private readonly starter: StepStarter,
  ) {}

  /** A step's job ended: its assets feed the next steps, or its failure fails the run. */
  async ended(envelope: EventEnvelope<JobLifecycleData>, ctx: EventContext<Tx>): Promise<void> {
    if (!([JobSucceeded.type, JobFailed.type, JobCanceled.type] as string[]).includes(envelope.type)) return;
    const key = parseStepJobKey(envelope.data.idempotencyKey);
    if (!key) return;
    const { runJobId, stepId } = key;
    const job = envelope.data;
    const run = await this.runs.lock(ctx.tx, runJobId);
    const step = run?.steps.find((s) => s.stepId === stepId);
    if (!run || !step || !ACTIVE_STEP.includes(step.status as never)) return;
    if (envelope.type === JobSucceeded.type) {
      await this.runs.moveSteps(ctx.tx, runJobId, [stepId], ACTIVE_STEP, 'success', {
        childJobId: job.jobId,
        assetIds: job.output?.assetIds ?? [],
      });
      if (run.status !== 'running') return;
      const ready = await this.state.advance(ctx.tx, (await this.runs.find(runJobId, ctx.tx))!);
      ctx.onSettled((committed) => {
        if (committed && ready.length > 0) void this.starter.start(runJobId, ready);
      });
      return;
    }
    const reason = envelope.type === JobCanceled.type ? 'its job was canceled' : (job.failureReason ?? 'its job failed');
    await this.runs.moveSteps(ctx.tx, runJobId, [stepId], ACTIVE_STEP, 'failure', { childJobId: job.jobId, failureReason: reason });
    if (run.status !== 'running') return;
    const children = await this.state.fail(ctx.tx, run, stepId, reason);
    this.logger.log(`run ${runJobId}: step ${stepId} failed (${reason}), canceling ${children.join(', ') || 'no other step'}`);
    ctx.onSettled((committed) => {
      if (committed) void this.starter.cancel(tenantOf(run), children);
    });
  }
}
