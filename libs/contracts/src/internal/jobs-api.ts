import type { JobKind, JobStatus, JobType } from '../events/job-lifecycle.events';
import type { TenantRef } from './internal-api';

export const JOBS_API = Symbol.for('genasset.internal.jobs-api');

/** One step of a workflow run as the run's job shows it (upstream's `metadata.flow[]`). */
export interface JobFlowNode {
  id: string;
  /** The step's generate mode or `custom-model`. */
  type: string;
  /** The custom model's id; empty for a mode step. */
  modelId: string;
  status: 'pending' | 'processing' | 'success' | 'failure' | 'skipped';
  /** The step's own job, once started. */
  jobId?: string;
  /** The assets it made (this product's; upstream's `assets` would need URLs). */
  assetIds: string[];
}

/** A job as the public API shows it (`GET /v1/jobs/{jobId}` → `{ job }`). */
export interface JobView {
  jobId: string;
  jobType: JobType;
  status: JobStatus;
  progress: number;
  ownerId: string;
  authorId?: string;
  statusHistory: { date: string; status: JobStatus }[];
  metadata: { input: Record<string, unknown>; output: Record<string, unknown>; assetIds: string[]; flow?: JobFlowNode[] };
  createdAt: string;
  updatedAt: string;
}

export interface CreateJobCommand {
  tenant: TenantRef;
  jobType: JobType;
  kind: JobKind;
  /** What the executor needs (validated request, asset ids, storage keys); shown as metadata.input. */
  input: Record<string, unknown>;
  modelId?: string;
  /** Creative units charged atomically with the creation; refunded on failure or cancel. 0 = free. */
  creativeUnitsCost: number;
  /** Caller-chosen key making a retried create return the first job instead of a second one. */
  idempotencyKey?: string;
}

/** Owned by job-service: the only writer of jobs and the only producer of job lifecycle facts. */
export interface JobsApi {
  /** Creates (and charges) a job in one transaction; its `job.created` fact commits with it. */
  createJob(command: CreateJobCommand): Promise<JobView>;
  /** The job when it belongs to the tenant's project; undefined otherwise. */
  getJob(tenant: TenantRef, jobId: string): Promise<JobView | undefined>;
  /**
   * Cancels a job of the tenant's project that is not final yet (its `job.canceled`
   * fact and refund commit together). Undefined when the job is not the tenant's;
   * an InternalApiError 409 when it is already final.
   */
  cancelJob(tenant: TenantRef, jobId: string): Promise<JobView | undefined>;
  /**
   * How many jobs of the tenant's project ran each of `modelIds` (any status):
   * the use generation-service ranks recommended models by. Unused ids are absent.
   */
  modelJobCounts(tenant: TenantRef, modelIds: readonly string[]): Promise<Record<string, number>>;
}
