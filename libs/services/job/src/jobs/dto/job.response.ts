import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JobSchema } from '@genasset/http';

// OpenAPI shapes of the job routes' answers (upstream GetJobIdResponse / GetJobsResponse /
// PostJobActionByJobIdResponse); the job itself is @genasset/http's JobSchema.

export class JobResponse {
  @ApiProperty({ type: JobSchema })
  job!: JobSchema;
}

export class JobsResponse {
  @ApiProperty({ type: [JobSchema] })
  jobs!: JobSchema[];

  @ApiPropertyOptional({
    description: 'Pass as paginationToken to get the next page; absent on the last page',
  })
  nextPaginationToken?: string;
}
