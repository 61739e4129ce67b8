import { Injectable } from '@nestjs/common';
import { JobFailedReported, JobProgressReported, JobSucceededReported, type JobFlowNode, type TenantRef } from '@genasset/contracts';
import { InjectOutbox, Outbox } from '@genasset/messaging';
import { GENERATION_SCHEMA } from '../../generation.schema';
import { WORKFLOW_NODE } from '../workflow-graph';
import type { WorkflowStep } from '../workflow.dto';
import { ACTIVE_STEP, WorkflowRunRepository, type RunStepRow, type RunWithSteps, type Tx } from './workflow-run.repository';

/** The idempotency key of a step's job: how the runner knows a job fact as one of its steps'. */
export const STEP_JOB_KEY = 'workflow-step:';
export const stepJobKey = (runJobId: string, stepId: string) => `${STEP_JOB_KEY}${runJobId}:${stepId}`;
export function parseStepJobKey(key: string | undefined): { runJobId: string; stepId: string } | undefined {
  if (!key?.startsWith(STEP_JOB_KEY)) return undefined;
  const [runJobId, stepId] = key.slice(STEP_JOB_KEY.length).split(':');
  return runJobId && stepId ? { runJobId, stepId } : undefined;
}

export const definitionOf = (step: RunStepRow) => step.step as unknown as WorkflowStep;
const sources = (step: RunStepRow) =>
  definitionOf(step).inputs.map((i) => i.ref?.node).filter((n): n is string => !!n && n !== WORKFLOW_NODE);

export const tenantOf = (run: RunWithSteps): TenantRef => ({
  teamId: run.teamId,
  projectId: run.projectId,
  ...(run.authorId ? { authorId: run.authorId } : {}),
});

/** The child jobs of a run's steps that may still be running. */
export const activeChildren = (run: RunWithSteps): string[] =>
  run.steps.filter((s) => ACTIVE_STEP.includes(s.status as never) && s.childJobId).map((s) => s.childJobId!);

/**
 * A run's state changes, each inside the caller's transaction with the run row locked, and the
 * reports they cause written to generation's outbox in the same transaction: job-service moves
 * the run's job (started, progress, succeeded with the final assets, failed with the units of
 * the steps that did not run to give back).
 */
@Injectable()
export class RunState {
  constructor(
    private readonly runs: WorkflowRunRepository,
    @InjectOutbox(GENERATION_SCHEMA.schema) private readonly outbox: Outbox,
  ) {}

  /**
   * Marks `starting` every pending step whose sources all succeeded and returns their ids (the
   * caller starts their jobs once this commits); reports progress, or the run's success when
   * every step succeeded.
   */
  async advance(tx: Tx, run: RunWithSteps): Promise<string[]> {
    const done = new Set(run.steps.filter((s) => s.status === 'success').map((s) => s.stepId));
    if (done.size === run.steps.length) {
      await this.runs.setRunStatus(tx, run.jobId, 'success');
      await this.outbox.write(tx, [this.outbox.event(JobSucceededReported, { jobId: run.jobId, output: runOutput(run) })]);
      return [];
    }
    const ready = run.steps.filter((s) => s.status === 'pending' && sources(s).every((id) => done.has(id))).map((s) => s.stepId);
    await this.runs.moveSteps(tx, run.jobId, ready, ['pending'], 'starting');
    await this.report(tx, run.jobId);
    return ready;
  }

  /**
   * Reports the run as it now stands to job-service, which shows it on the run's job: `progress`
   * (steps succeeded / steps), `metadata.flow` (each step's status, job and assets), and
   * `consumedUnits` (the units of the steps that succeeded: a cancel refunds only the rest).
   */
  async report(tx: Tx, runJobId: string): Promise<void> {
    const run = (await this.runs.find(runJobId, tx))!;
    const succeeded = run.steps.filter((s) => s.status === 'success');
    await this.outbox.write(tx, [
      this.outbox.event(JobProgressReported, {
        jobId: run.jobId,
        status: 'in-progress' as const,
        progress: Math.round((succeeded.length / run.steps.length) * 100) / 100,
        consumedUnits: unitsOf(run, 'success'),
        flow: runFlow(run),
      }),
    ]);
  }

  /**
   * A step failed: the run fails, steps not started are skipped, and job-service gives back the
   * units of every step that did not succeed. Returns the child jobs to cancel once this commits.
   */
  async fail(tx: Tx, run: RunWithSteps, stepId: string, reason: string): Promise<string[]> {
    await this.runs.setRunStatus(tx, run.jobId, 'failure');
    const pending = run.steps.filter((s) => s.status === 'pending').map((s) => s.stepId);
    await this.runs.moveSteps(tx, run.jobId, pending, ['pending'], 'skipped');
    const spent = unitsOf(run, 'success');
    const charged = unitsOf(run);
    // The steps as they ended (the failed one, those skipped) stay on the job's metadata.flow.
    await this.report(tx, run.jobId);
    await this.outbox.write(tx, [
      this.outbox.event(JobFailedReported, {
        jobId: run.jobId,
        reason: `step ${stepId} failed: ${reason}`.slice(0, 2000),
        refundUnits: charged - spent,
      }),
    ]);
    return activeChildren(run).filter((id) => id !== run.steps.find((s) => s.stepId === stepId)?.childJobId);
  }

  /**
   * The run's job was canceled (job-service refunded it all but the units consumed, those of the
   * steps that had succeeded, reported with the progress): steps not started are skipped; returns
   * the child jobs to cancel.
   */
  async cancel(tx: Tx, run: RunWithSteps): Promise<string[]> {
    await this.runs.setRunStatus(tx, run.jobId, 'canceled');
    const pending = run.steps.filter((s) => s.status === 'pending').map((s) => s.stepId);
    await this.runs.moveSteps(tx, run.jobId, pending, ['pending'], 'skipped');
    return activeChildren(run);
  }
}

/** The units charged for the run's steps (of one status). */
const unitsOf = (run: RunWithSteps, status?: string) =>
  run.steps.filter((s) => status === undefined || s.status === status).reduce((sum, s) => sum + s.units, 0);

/** The run's job output: the assets of its last steps (those no step takes), each step's job and assets, and the flow. */
export function runOutput(run: RunWithSteps): { assetIds: string[]; steps: Record<string, unknown>[]; flow: JobFlowNode[] } {
  const taken = new Set(run.steps.flatMap(sources));
  return {
    assetIds: run.steps.filter((s) => !taken.has(s.stepId)).flatMap((s) => s.assetIds),
    steps: run.steps.map((s) => ({ id: s.stepId, jobId: s.childJobId, status: s.status, assetIds: s.assetIds })),
    flow: runFlow(run),
  };
}

/** The run's steps as its job shows them (upstream's metadata.flow): a step `starting` is `processing`. */
export function runFlow(run: RunWithSteps): JobFlowNode[] {
  return run.steps.map((s) => {
    const step = definitionOf(s);
    return {
      id: s.stepId,
      type: step.type,
      modelId: step.modelId ?? '',
      status: (s.status === 'starting' ? 'processing' : s.status) as JobFlowNode['status'],
      ...(s.childJobId ? { jobId: s.childJobId } : {}),
      assetIds: s.assetIds,
    };
  });
}
