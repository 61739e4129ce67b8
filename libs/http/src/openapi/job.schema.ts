import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { JOB_STATUSES, JOB_TYPES, type JobFlowNode, type JobStatus, type JobType, type JobView } from '@genasset/contracts';

// The OpenAPI shape of JobView (upstream GetJobIdResponse's job), once for every service whose
// answers carry a job: job-service's routes, generate responses, batch downloads. One class, so
// the one document the platform serves has one `Job` schema, not a copy per service.

@ApiSchema({ name: 'JobStatusEntry' })
export class JobStatusEntrySchema {
  @ApiProperty({ format: 'date-time', example: '2026-11-21T13:00:00.000Z' })
  date!: string;

  @ApiProperty({ enum: JOB_STATUSES })
  status!: JobStatus;
}

@ApiSchema({ name: 'JobFlowNode' })
export class JobFlowNodeSchema implements JobFlowNode {
  @ApiProperty({ description: 'The step id' })
  id!: string;

  @ApiProperty({ description: 'The step type: a generate mode or `custom-model`' })
  type!: string;

  @ApiProperty({ description: "The custom model's id; empty for a mode step" })
  modelId!: string;

  @ApiProperty({ enum: ['pending', 'processing', 'success', 'failure', 'skipped'] })
  status!: JobFlowNode['status'];

  @ApiPropertyOptional({ description: "The step's own job, once started" })
  jobId?: string;

  @ApiProperty({ type: [String], description: 'The assets the step made' })
  assetIds!: string[];
}

@ApiSchema({ name: 'JobMetadata' })
export class JobMetadataSchema {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The inputs of the job: the validated request, images as asset ids or stored-input keys',
  })
  input!: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The output of the job (on success); `errorMessage` says why a failed job failed',
  })
  output!: Record<string, unknown>;

  @ApiProperty({ type: [String], description: 'Assets the job produced' })
  assetIds!: string[];

  @ApiPropertyOptional({
    type: [JobFlowNodeSchema],
    description: "A workflow run's steps and their statuses, kept up to date while it runs (workflow jobs only)",
  })
  flow?: JobFlowNodeSchema[];
}

@ApiSchema({ name: 'Job' })
export class JobSchema implements JobView {
  @ApiProperty({ example: 'job_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A' })
  jobId!: string;

  @ApiProperty({ enum: JOB_TYPES })
  jobType!: JobType;

  @ApiProperty({ enum: JOB_STATUSES })
  status!: JobStatus;

  @ApiProperty({ minimum: 0, maximum: 1, description: 'Progress between 0 and 1; never decreases' })
  progress!: number;

  @ApiProperty({ type: [JobStatusEntrySchema], description: 'Every status the job reached, oldest first' })
  statusHistory!: JobStatusEntrySchema[];

  @ApiProperty({ type: JobMetadataSchema })
  metadata!: JobMetadataSchema;

  @ApiProperty({ description: 'The project the job belongs to' })
  ownerId!: string;

  @ApiPropertyOptional({ description: 'The API key that created the job' })
  authorId?: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T13:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T13:00:01.250Z' })
  updatedAt!: string;
}
