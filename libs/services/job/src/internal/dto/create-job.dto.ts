import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { JOB_KINDS, JOB_TYPES, type CreateJobCommand, type JobKind, type JobType } from '@genasset/contracts';

export class TenantDto {
  @IsString()
  @MinLength(1)
  teamId!: string;

  @IsString()
  @MinLength(1)
  projectId!: string;

  @IsOptional()
  @IsString()
  authorId?: string;
}

/** `CreateJobCommand`, validated: the body of `POST /internal/v1/jobs`, and checked again in-process. */
export class CreateJobDto implements CreateJobCommand {
  @IsObject()
  @ValidateNested()
  @Type(() => TenantDto)
  tenant!: TenantDto;

  @IsIn(JOB_TYPES as unknown as string[])
  jobType!: JobType;

  @IsIn(JOB_KINDS as unknown as string[])
  kind!: JobKind;

  @IsObject()
  input!: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MinLength(1)
  modelId?: string;

  /** Whole creative units; 0 = free. */
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  creativeUnitsCost!: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  idempotencyKey?: string;
}

/** Query of `GET /internal/v1/jobs/{jobId}`: the tenant the caller acts for. */
export class TenantQueryDto {
  @IsString()
  @MinLength(1)
  teamId!: string;

  @IsString()
  @MinLength(1)
  projectId!: string;
}

/** `POST /internal/v1/jobs/model-counts`: `{ tenant, modelIds }` → `{ counts }`. */
export class ModelJobCountsDto {
  @IsObject()
  @ValidateNested()
  @Type(() => TenantDto)
  tenant!: TenantDto;

  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  modelIds!: string[];
}
