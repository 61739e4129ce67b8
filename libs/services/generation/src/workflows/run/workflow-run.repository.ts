import { Injectable } from '@nestjs/common';
import { GenerationPrisma } from '../../generation.prisma';
import type { Prisma, WorkflowRun, WorkflowRunStep } from '../../generated/prisma/client';

export type Tx = Prisma.TransactionClient;
export type RunRow = WorkflowRun;
export type RunStepRow = WorkflowRunStep;
export type RunWithSteps = WorkflowRun & { steps: WorkflowRunStep[] };

/** Step statuses: `starting` (its job is being created) and `processing` show as upstream's `processing`. */
export type StepStatus = 'pending' | 'starting' | 'processing' | 'success' | 'failure' | 'skipped';
export const ACTIVE_STEP: readonly StepStatus[] = ['starting', 'processing'];

export interface NewRun {
  jobId: string;
  workflowId: string;
  projectId: string;
  teamId: string;
  authorId?: string;
  inputs: Record<string, unknown>;
  steps: { stepId: string; position: number; step: unknown; units: number }[];
}

/** The runs of workflows and their steps (generation.workflow_runs, workflow_run_steps). */
@Injectable()
export class WorkflowRunRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** Creates the run once: false when it exists (a redelivered work request). */
  async create(tx: Tx, run: NewRun): Promise<boolean> {
    const { count } = await tx.workflowRun.createMany({
      data: [
        {
          jobId: run.jobId,
          workflowId: run.workflowId,
          projectId: run.projectId,
          teamId: run.teamId,
          authorId: run.authorId ?? null,
          inputs: run.inputs as Prisma.InputJsonValue,
        },
      ],
      skipDuplicates: true,
    });
    if (count === 0) return false;
    await tx.workflowRunStep.createMany({
      data: run.steps.map((s) => ({ ...s, jobId: run.jobId, step: s.step as Prisma.InputJsonValue })),
    });
    return true;
  }

  /** The run with its steps, its row locked until `tx` ends (one fact at a time changes a run). */
  async lock(tx: Tx, jobId: string): Promise<RunWithSteps | undefined> {
    const locked = await tx.$queryRaw<{ job_id: string }[]>`SELECT job_id FROM generation.workflow_runs WHERE job_id = ${jobId} FOR UPDATE`;
    if (locked.length === 0) return undefined;
    return this.find(jobId, tx);
  }

  async find(jobId: string, client: Tx = this.prisma): Promise<RunWithSteps | undefined> {
    return (
      (await client.workflowRun.findUnique({ where: { jobId }, include: { steps: { orderBy: { position: 'asc' } } } })) ??
      undefined
    );
  }

  setRunStatus(tx: Tx, jobId: string, status: string): Promise<unknown> {
    return tx.workflowRun.update({ where: { jobId }, data: { status, updatedAt: new Date() } });
  }

  /** Moves steps from one of `from` to `to` (with the given fields); returns how many moved. */
  async moveSteps(
    tx: Tx,
    jobId: string,
    stepIds: readonly string[],
    from: readonly StepStatus[],
    to: StepStatus,
    data: { childJobId?: string; assetIds?: string[]; failureReason?: string } = {},
  ): Promise<number> {
    if (stepIds.length === 0) return 0;
    const { count } = await tx.workflowRunStep.updateMany({
      where: { jobId, stepId: { in: [...stepIds] }, status: { in: [...from] } },
      data: { ...data, status: to, updatedAt: new Date() },
    });
    return count;
  }

  /** Records the step's job where none is recorded yet (whatever the step's status by now). */
  setChildJob(tx: Tx, jobId: string, stepId: string, childJobId: string): Promise<unknown> {
    return tx.workflowRunStep.updateMany({ where: { jobId, stepId, childJobId: null }, data: { childJobId } });
  }

  /** Steps left `starting` since before `before`: their job creation may not have happened (a crash after commit). */
  stalled(before: Date, take: number): Promise<RunStepRow[]> {
    return this.prisma.workflowRunStep.findMany({
      where: { status: 'starting', updatedAt: { lt: before } },
      orderBy: { updatedAt: 'asc' },
      take,
    });
  }
}
