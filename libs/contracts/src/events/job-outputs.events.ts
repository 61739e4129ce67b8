import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import { TOPICS } from '../topics/topics';
import { JOB_TYPES, type JobType } from './job-lifecycle.events';
import { JobTenantData } from './job-report.events';

const JOB_ID = /^job_[0-9A-Za-z]+$/;
const ASSET_ID = /^asset_[0-9A-Za-z]{1,64}$/;

/** Most outputs one job may hand over at once (texture: 6 maps; inference: numSamples ≤ 128). */
export const MAX_JOB_OUTPUTS = 128;

/**
 * One file an executor wrote to object storage for a job (claim check: the
 * key, never the bytes). asset-service turns it into an asset of `assetType`.
 */
export class JobOutputFileData {
  /** Object key; must lie under `jobs/<jobId>/` (asset-service refuses any other). */
  @IsString()
  @MaxLength(1024)
  key!: string;

  @IsString()
  @MaxLength(200)
  mimeType!: string;

  /** One of the spec's asset types: pixelization, texture-normal, segmentation-mask, inference-txt2img… */
  @IsString()
  @MaxLength(100)
  assetType!: string;

  /** The id the asset must get: a generate route announced it as pending (`input.outputAssetId`). */
  @IsOptional()
  @IsString()
  @Matches(ASSET_ID)
  assetId?: string;

  /** The input asset this output derives from (its root is resolved by asset-service). */
  @IsOptional()
  @IsString()
  @Matches(ASSET_ID)
  parentAssetId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  name?: string;

  /** Shown as the asset's metadata: at least `engine` and `mode`, plus what the engine wants kept (size, seed, parameters). */
  @IsObject()
  metadata!: Record<string, unknown>;
}

/**
 * An executor finished a job and stored its output files. asset-service
 * creates one asset per file (idempotently: job id + output index) and only
 * then reports `job.report.succeeded` with their ids, so job-service completes
 * the job once its assets exist (docs/architecture.md). Jobs without files (captions,
 * embeddings) skip this step: the executor reports success itself.
 */
export class JobOutputsProducedData {
  @IsString()
  @Matches(JOB_ID)
  jobId!: string;

  @IsIn(JOB_TYPES as unknown as string[])
  jobType!: JobType;

  @ValidateNested()
  @Type(() => JobTenantData)
  tenant!: JobTenantData;

  /** The model the job ran (set on inference outputs, for the `modelId` filter). */
  @IsOptional()
  @IsString()
  modelId?: string;

  /** In order: output `i` becomes the asset of `outputIndex` i, and `assetIds[i]` of the job. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_JOB_OUTPUTS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => JobOutputFileData)
  outputs!: JobOutputFileData[];

  /** More fields for the job's `output` beside `assetIds` (e.g. `albedoAssetId`, `engine`). */
  @IsOptional()
  @IsObject()
  extra?: Record<string, unknown>;

  /** Which attempt of the executor produced the files (keys differ per attempt). */
  @IsOptional()
  @IsInt()
  @Min(1)
  attempt?: number;
}

export const JobOutputsProduced = defineEvent({
  type: 'job.outputs.produced',
  topic: TOPICS.jobReports,
  payload: JobOutputsProducedData,
  keyField: 'jobId',
});
