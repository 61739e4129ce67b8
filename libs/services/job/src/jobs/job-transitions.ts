import { Inject, Injectable } from '@nestjs/common';
import {
  JobCanceled,
  JobFailed,
  JobStarted,
  JobSucceeded,
  JobWorkCanceled,
  type EventEnvelope,
  type JobFlowNode,
  type JobKind,
  type JobRunningStatus,
  type JobStatus,
  type JobType,
} from '@genasset/contracts';
import { Outbox } from '@genasset/messaging';
import { CREDIT_LEDGER, type CreditLedger } from '../credits/credit-ledger';
import { observeJobFinished } from '../metrics/job.metrics';
import { decide, type JobEvent } from '../state-machine/job-state-machine';
import { factOutput, lifecycleData } from './job-facts';
import { JobRepository, type JobChange, type JobRecord, type JobScope, type JobTx } from './job.repository';

/** What happened to a job: an executor's report or a client's action, with its payload. */
export type JobOccurrence =
  | { type: 'progress'; status: JobRunningStatus; progress: number; consumedUnits?: number; flow?: JobFlowNode[] }
  | { type: 'succeed'; output: Record<string, unknown> }
  | { type: 'fail'; reason: string; refundUnits?: number }
  | { type: 'cancel' };

export type TransitionOutcome =
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string; job: JobRecord }
  | { kind: 'unchanged'; job: JobRecord }
  | { kind: 'applied'; job: JobRecord; from: JobStatus };

/**
 * Applies one occurrence to one job inside the caller's transaction: locks
 * the row, asks the state machine, writes the change and its history entry,
 * the facts it causes (outbox, same transaction) and the refund hook. The
 * only place job state changes after creation.
 */
@Injectable()
export class JobTransitions {
  constructor(
    private readonly jobs: JobRepository,
    private readonly outbox: Outbox,
    @Inject(CREDIT_LEDGER) private readonly ledger: CreditLedger,
  ) {}

  /** `scope` set: a job outside it is `missing` (another tenant's job is never revealed). */
  async apply(
    tx: JobTx,
    jobId: string,
    occurrence: JobOccurrence,
    scope?: JobScope,
  ): Promise<TransitionOutcome> {
    const job = await this.jobs.lock(tx, jobId);
    if (!job || (scope && !inScope(job, scope))) return { kind: 'missing' };

    const decision = decide({ status: job.status as JobStatus, progress: job.progress }, toEvent(occurrence));
    const at = new Date();
    switch (decision.kind) {
      case 'refused':
        return { kind: 'refused', reason: decision.reason, job };
      case 'unchanged':
        // Same status and progress, but the run's steps or what it consumed moved on: kept, without a fact.
        if (!movesOn(occurrence, job)) return { kind: 'unchanged', job };
        return { kind: 'unchanged', job: await this.jobs.apply(tx, job, { progress: job.progress, ...running(occurrence, job), at }) };
      case 'progress':
        return {
          kind: 'applied',
          from: job.status as JobStatus,
          job: await this.jobs.apply(tx, job, { progress: decision.progress, ...running(occurrence, job), at }),
        };
    }

    const change: JobChange = { progress: decision.progress, status: decision.to, ...running(occurrence, job), at };
    if (occurrence.type === 'succeed') {
      change.output = occurrence.output;
      change.assetIds = Array.isArray(occurrence.output.assetIds)
        ? (occurrence.output.assetIds as string[])
        : [];
    }
    if (occurrence.type === 'fail') change.failureReason = occurrence.reason;
    const updated = await this.jobs.apply(tx, job, change);

    const facts: EventEnvelope[] = [];
    if (decision.started) facts.push(this.outbox.event(JobStarted, lifecycleData(updated)));
    if (occurrence.type === 'succeed') {
      facts.push(
        this.outbox.event(JobSucceeded, lifecycleData(updated, { output: factOutput(occurrence.output) })),
      );
    }
    if (occurrence.type === 'fail') {
      facts.push(this.outbox.event(JobFailed, lifecycleData(updated, { failureReason: occurrence.reason })));
      // A job that consumed part of its charge (a workflow run's finished steps) says what is left to give back.
      // Absent: the charge minus what it had consumed (reported with its progress).
      const units = Math.min(occurrence.refundUnits ?? updated.creativeUnitsCost - updated.consumedUnits, updated.creativeUnitsCost);
      await this.ledger.refund(tx, { ...entry(updated), units, reason: 'failure' });
    }
    if (occurrence.type === 'cancel') {
      facts.push(this.outbox.event(JobCanceled, lifecycleData(updated)));
      // Tells a running executor to stop; its later reports are refused anyway.
      facts.push(
        this.outbox.event(JobWorkCanceled, {
          jobId,
          jobType: updated.jobType as JobType,
          kind: updated.kind as JobKind,
        }),
      );
      // What it had consumed stays charged (a workflow run's finished steps): the rest comes back.
      await this.ledger.refund(tx, {
        ...entry(updated),
        units: Math.max(0, updated.creativeUnitsCost - updated.consumedUnits),
        reason: 'canceled',
      });
    }
    await this.outbox.write(tx, facts);
    if (occurrence.type !== 'progress') observeJobFinished(updated, at);
    return { kind: 'applied', from: job.status as JobStatus, job: updated };
  }
}

function toEvent(occurrence: JobOccurrence): JobEvent {
  return occurrence.type === 'progress'
    ? { type: 'progress', status: occurrence.status, progress: occurrence.progress }
    : { type: occurrence.type };
}

/** What a progress report says beside the progress, as a change: the units consumed, a workflow's steps (output.flow). */
function running(occurrence: JobOccurrence, job: JobRecord): Pick<JobChange, 'consumedUnits' | 'output'> {
  if (occurrence.type !== 'progress') return {};
  return {
    ...(occurrence.consumedUnits !== undefined ? { consumedUnits: occurrence.consumedUnits } : {}),
    ...(occurrence.flow ? { output: { ...(job.output as Record<string, unknown>), flow: occurrence.flow } } : {}),
  };
}

/** Whether a progress report that moves neither status nor progress still changes the job. */
const movesOn = (occurrence: JobOccurrence, job: JobRecord) =>
  occurrence.type === 'progress' &&
  ((occurrence.consumedUnits ?? 0) > job.consumedUnits ||
    (occurrence.flow !== undefined && JSON.stringify(occurrence.flow) !== JSON.stringify((job.output as { flow?: unknown }).flow)));

export function inScope(job: { teamId: string; projectId: string }, scope: JobScope): boolean {
  return job.teamId === scope.teamId && (!scope.projectId || job.projectId === scope.projectId);
}

function entry(job: JobRecord) {
  return { jobId: job.id, teamId: job.teamId, projectId: job.projectId, units: job.creativeUnitsCost };
}
