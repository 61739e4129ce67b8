import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ProjectIdQuery } from '@genasset/auth';
import { JOB_STATUSES, JOB_TYPES, type JobStatus } from '@genasset/contracts';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 200;

/** `GET /v1/jobs` query: the upstream filters (`GetJobs`), and `projectId` as on every list route. */
export class ListJobsQuery {
  @ProjectIdQuery('whose jobs to list', 'a team-level API key without it lists every job of its team')
  projectId?: string;

  @ApiPropertyOptional({ enum: JOB_TYPES, description: 'Jobs of this type. Ignored when `types` is given.' })
  @IsOptional()
  @IsIn(JOB_TYPES as unknown as string[])
  type?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Comma-separated job types; takes precedence over `type`.',
    example: 'upscale,pixelate',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((v) => v.trim()) : value))
  @IsArray()
  @IsIn(JOB_TYPES as unknown as string[], {
    each: true,
    message: 'each value in types must be one of the job types',
  })
  types?: string[];

  @ApiPropertyOptional({ enum: JOB_STATUSES, description: 'Jobs currently in this status.' })
  @IsOptional()
  @IsIn(JOB_STATUSES as unknown as string[])
  status?: JobStatus;

  @ApiPropertyOptional({ description: 'Jobs created by this author (the API key id that asked for them).' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  authorId?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`false` leaves out jobs created with `hideResults: true`.',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  hideResults?: 'true' | 'false';

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize?: number;

  @ApiPropertyOptional({ description: 'nextPaginationToken of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  paginationToken?: string;
}
