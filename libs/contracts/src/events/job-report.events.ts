import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import type { JobFlowNode } from '../internal/jobs-api';
import { TOPICS } from '../topics/topics';
import { JOB_KINDS, JOB_TYPES, JobOutputData, type JobKind, type JobType } from './job-lifecycle.events';

const JOB_ID = /^job_[0-9A-Za-z]+$/;

/** The statuses an executor reports while it runs a job (the rest belong to job-service). */
export const JOB_RUNNING_STATUSES = ['warming-up', 'in-progress', 'finalizing'] as const;
export type JobRunningStatus = (typeof JOB_RUNNING_STATUSES)[number];

/** Whose job it is: executors write outputs (assets, archives) into this tenant. */
export class JobTenantData {
  @IsString()
  teamId!: string;

  @IsString()
  projectId!: string;

  /** The API key (or user) that asked for the job. */
  @IsOptional()
  @IsString()
  authorId?: string;
}

// ── job.work.v1: job-service → executors ────────────────────────────────────

/**
 * A job was created and is queued: whoever executes this kind/jobType runs it
 * (inference-worker for generation and training, asset-service for archives)
 * and reports on `job.reports.v1`. Executors filter on `kind` and `jobType`.
 */
export class JobWorkRequestedData {
  @IsString()
  @Matches(JOB_ID)
  jobId!: string;

  @IsIn(JOB_TYPES as unknown as string[])
  jobType!: JobType;

  @IsIn(JOB_KINDS as unknown as string[])
  kind!: JobKind;

  @IsObject()
  @ValidateNested()
  @Type(() => JobTenantData)
  tenant!: JobTenantData;

  /** What the creator validated for the executor: request parameters, asset ids, storage keys. */
  @IsObject()
  input!: Record<string, unknown>;

  /** Present only when the job runs a model. */
  @IsOptional()
  @IsString()
  modelId?: string;
}

/** A queued or running job was canceled: an executor running it should stop; its reports are ignored from now on. */
export class JobWorkCanceledData {
  @IsString()
  @Matches(JOB_ID)
  jobId!: string;

  @IsIn(JOB_TYPES as unknown as string[])
  jobType!: JobType;

  @IsIn(JOB_KINDS as unknown as string[])
  kind!: JobKind;
}

export const JobWorkRequested = defineEvent({
  type: 'job.work.requested',
  topic: TOPICS.jobWork,
  payload: JobWorkRequestedData,
  keyField: 'jobId',
});

export const JobWorkCanceled = defineEvent({
  type: 'job.work.canceled',
  topic: TOPICS.jobWork,
  payload: JobWorkCanceledData,
  keyField: 'jobId',
});

// ── job.reports.v1: executors → job-service ─────────────────────────────────

/** The job moved to (or advanced within) a running status. Progress only ever grows; lower values are ignored. */
export class JobProgressReportData {
  @IsString()
  @Matches(JOB_ID)
  jobId!: string;

  @IsIn(JOB_RUNNING_STATUSES as unknown as string[])
  status!: JobRunningStatus;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  progress!: number;

  /**
   * Creative units of the charge the job has consumed so far (a workflow run: the units of its
   * steps that succeeded). A cancel then refunds the charge minus these; absent: unchanged
   * (0 by default, a cancel refunds everything). Never decreases, never more than the charge.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  consumedUnits?: number;

  /**
   * A workflow run's steps as they stand (upstream's `metadata.flow`: `id`, `type`, `modelId`,
   * `status`, `jobId?`, and this product's `assetIds`), shown on the job while it runs; a report
   * with a new flow is kept even when the progress did not move.
   */
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  flow?: JobFlowNode[];
}

/**
 * The job finished and its outputs exist (assets created, archive uploaded).
 * `output` is shown as the job's `metadata.output`; `assetIds`, `downloadUrl`
 * and `model` also travel on the `job.succeeded` fact. Other fields are kept
 * on the job only.
 */
export class JobSucceededReportData {
  @IsString()
  @Matches(JOB_ID)
  jobId!: string;

  @ValidateNested()
  @Type(() => JobOutputData)
  output!: JobOutputData & Record<string, unknown>;
}

/** The job cannot finish. `reason` is shown to the client: words it can act on, never internals. */
export class JobFailedReportData {
  @IsString()
  @Matches(JOB_ID)
  jobId!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  reason!: string;

  /**
   * Creative units to give back, when the job consumed part of its charge before it failed (a
   * workflow run refunds the units of the steps that did not run). Absent: the whole charge.
   * Never more than the charge.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  refundUnits?: number;
}

export const JobProgressReported = defineEvent({
  type: 'job.report.progress',
  topic: TOPICS.jobReports,
  payload: JobProgressReportData,
  keyField: 'jobId',
});

export const JobSucceededReported = defineEvent({
  type: 'job.report.succeeded',
  topic: TOPICS.jobReports,
  payload: JobSucceededReportData,
  keyField: 'jobId',
});

export const JobFailedReported = defineEvent({
  type: 'job.report.failed',
  topic: TOPICS.jobReports,
  payload: JobFailedReportData,
  keyField: 'jobId',
});
