import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import { TOPICS } from '../topics/topics';

/** Job types of the upstream API (`GET /v1/jobs/{jobId}` → job.jobType). */
export const JOB_TYPES = [
  'assets-download',
  'canvas-export',
  'caption',
  'caption-llava',
  'custom',
  'describe-style',
  'detection',
  'embed',
  'flux',
  'flux-model-training',
  'generate-prompt',
  'image-generation',
  'image-prompt-editing',
  'inference',
  'model-download',
  'model-import',
  'model-training',
  'openai-image-generation',
  'patch-image',
  'pixelate',
  'reframe',
  'remove-background',
  'repaint',
  'restyle',
  'segment',
  'skybox-3d',
  'skybox-base-360',
  'skybox-hdri',
  'skybox-upscale-360',
  'texture',
  'translate',
  'upload',
  'upscale',
  'upscale-skybox',
  'upscale-texture',
  'vectorize',
  'workflow',
] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JOB_STATUSES = [
  'pending',
  'queued',
  'warming-up',
  'in-progress',
  'finalizing',
  'success',
  'failure',
  'canceled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * Which public event family a job belongs to: the webhook catalog maps a job
 * fact to `generation.*`, `asset.download.*`, `model.download.*` or
 * `model.training.*` by this, not by parsing the job type.
 */
export const JOB_KINDS = ['generation', 'asset-download', 'model-download', 'model-training'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export class JobOutputData {
  /** Assets the job produced (present on success when it produced any). */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  assetIds?: string[];

  /** Signed URL of an archive (asset or model downloads, on success). */
  @IsOptional()
  @IsString()
  downloadUrl?: string;

  /** Summary of the model a training job concerns. */
  @IsOptional()
  @IsObject()
  model?: Record<string, unknown>;
}

/** One fact about one job; job-service is its only producer. Key: jobId. */
export class JobLifecycleData {
  @IsString()
  @Matches(/^job_[0-9A-Za-z]+$/)
  jobId!: string;

  @IsIn(JOB_TYPES as unknown as string[])
  jobType!: JobType;

  @IsIn(JOB_KINDS as unknown as string[])
  kind!: JobKind;

  @IsIn(JOB_STATUSES as unknown as string[])
  status!: JobStatus;

  @IsString()
  teamId!: string;

  @IsString()
  projectId!: string;

  /** Present only when the job ran a model. */
  @IsOptional()
  @IsString()
  modelId?: string;

  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  progress?: number;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => JobOutputData)
  output?: JobOutputData;

  /** Why the job failed, in words a client can act on. */
  @IsOptional()
  @IsString()
  failureReason?: string;

  /**
   * The creator's idempotency key, when it gave one: how a creator recognises
   * its job's facts before it has recorded the job id the create returned.
   */
  @IsOptional()
  @IsString()
  idempotencyKey?: string;
}

const job = <T extends string>(type: T) =>
  defineEvent({ type, topic: TOPICS.jobLifecycle, payload: JobLifecycleData, keyField: 'jobId' });

/** The job exists and is queued (its units are charged). */
export const JobCreated = job('job.created');
/** An executor began running the job. */
export const JobStarted = job('job.started');
/** The job finished and its outputs exist. */
export const JobSucceeded = job('job.succeeded');
export const JobFailed = job('job.failed');
export const JobCanceled = job('job.canceled');
