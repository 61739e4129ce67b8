import { Controller, Logger } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  JobWorkCanceled,
  JobWorkRequested,
  TOPICS,
  type EventEnvelope,
  type JobWorkCanceledData,
  type JobWorkRequestedData,
} from '@genasset/contracts';
import { KnownTenants } from '@genasset/identity';
import { EventContext, OnEvent } from '@genasset/messaging';
import { GENERATION_SERVICE } from '../../generation.schema';
import { RunState, tenantOf } from './run-state';
import type { RunPlan } from './run-workflow';
import { StepStarter } from './step-starter';
import { WorkflowRunRepository, type Tx } from './workflow-run.repository';

const isRun = (envelope: EventEnvelope<{ jobType: string }>) => envelope.data.jobType === 'workflow';

/**
 * The executor of `workflow` jobs (docs/workflows.md: Running). job-service asks for the run
 * (`job.work.requested`) or its cancel (`job.work.canceled`); each step runs as a job of its
 * own, whose facts (`job.lifecycle`, StepFacts) move the run on. Every handler changes the run in
 * `ctx.tx` (with its inbox mark: a redelivered fact changes nothing) under the run's row lock,
 * and starts or cancels step jobs only once that committed (StepStarter).
 */
@Controller()
export class WorkflowRunnerController {
  private readonly logger = new Logger('WorkflowRuns');
  /** Projects found in identity: one lookup per project, not per run (KnownTenants). */
  private readonly knownTenants = new KnownTenants();

  constructor(
    private readonly runs: WorkflowRunRepository,
    private readonly state: RunState,
    private readonly starter: StepStarter,
  ) {}

  @OnEvent(TOPICS.jobWork, { consumer: GENERATION_SERVICE, types: [JobWorkRequested.type], when: isRun })
  async requested(@Payload() envelope: EventEnvelope<JobWorkRequestedData>, @Ctx() ctx: EventContext<Tx>): Promise<void> {
    const { jobId, tenant, input } = envelope.data;
    if (envelope.data.jobType !== 'workflow') return;
    // Deployments (or test runs) sharing a broker see each other's work: a run of a project
    // unknown here is another deployment's, whose job a failure reported from here would fail.
    if (!(await this.knownTenants.has(ctx.tx, tenant.teamId, tenant.projectId))) {
      this.logger.warn(`run ${jobId}: ignored: project ${tenant.projectId} of team ${tenant.teamId} is unknown to this deployment`);
      return;
    }
    const plan = input as unknown as RunPlan;
    const created = await this.runs.create(ctx.tx, {
      jobId,
      workflowId: plan.workflowId,
      projectId: tenant.projectId,
      teamId: tenant.teamId,
      ...(tenant.authorId ? { authorId: tenant.authorId } : {}),
      inputs: plan.inputs,
      steps: plan.steps.map((s, position) => ({ stepId: s.id, position, step: s.step, units: s.units })),
    });
    if (!created) return;
    const run = (await this.runs.lock(ctx.tx, jobId))!;
    const ready = await this.state.advance(ctx.tx, run);
    this.logger.log(`run ${jobId} of ${plan.workflowId}: starting ${ready.join(', ')}`);
    ctx.onSettled((committed) => {
      if (committed) void this.starter.start(jobId, ready);
    });
  }

  @OnEvent(TOPICS.jobWork, { consumer: GENERATION_SERVICE, types: [JobWorkCanceled.type], when: isRun })
  async canceled(@Payload() envelope: EventEnvelope<JobWorkCanceledData>, @Ctx() ctx: EventContext<Tx>): Promise<void> {
    if (envelope.data.jobType !== 'workflow') return;
    const run = await this.runs.lock(ctx.tx, envelope.data.jobId);
    if (!run || run.status !== 'running') return;
    const children = await this.state.cancel(ctx.tx, run);
    this.logger.log(`run ${run.jobId}: canceled, canceling ${children.join(', ') || 'no running step'}`);
    ctx.onSettled((committed) => {
      if (committed) void this.starter.cancel(tenantOf(run), children);
    });
  }
}
