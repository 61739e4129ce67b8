import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JOB_STATUSES, JOB_TYPES } from '@genasset/contracts';

// OpenAPI shapes of the job (upstream GetJobIdResponse / GetJobsResponse / PostJobActionByJobIdResponse).

export class JobStatusEntryDto {
  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  date!: string;

  @ApiProperty({ enum: JOB_STATUSES })
  status!: string;
}

export class JobMetadataDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The inputs of the job' })
  input!: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The output of the job (on success); `errorMessage` says why a failed job failed',
  })
  output!: Record<string, unknown>;

  @ApiProperty({ type: [String], description: 'Assets the job produced' })
  assetIds!: string[];
}

export class JobDto {
  @ApiProperty({ example: 'job_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A' })
  jobId!: string;

  @ApiProperty({ enum: JOB_TYPES })
  jobType!: string;

  @ApiProperty({ enum: JOB_STATUSES })
  status!: string;

  @ApiProperty({ minimum: 0, maximum: 1, description: 'Progress between 0 and 1; never decreases' })
  progress!: number;

  @ApiProperty({ type: [JobStatusEntryDto], description: 'Every status the job reached, oldest first' })
  statusHistory!: JobStatusEntryDto[];

  @ApiProperty({ type: JobMetadataDto })
  metadata!: JobMetadataDto;

  @ApiProperty({ description: 'The project the job belongs to' })
  ownerId!: string;

  @ApiPropertyOptional({ description: 'The API key that created the job' })
  authorId?: string;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-21T13:00:01.250Z' })
  updatedAt!: string;
}

export class JobResponse {
  @ApiProperty({ type: JobDto })
  job!: JobDto;
}

export class JobsResponse {
  @ApiProperty({ type: [JobDto] })
  jobs!: JobDto[];

  @ApiPropertyOptional({
    description: 'Pass as paginationToken to get the next page; absent on the last page',
  })
  nextPaginationToken?: string;
}
