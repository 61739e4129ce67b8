import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { ID_PATTERNS } from './limits';

/** `?projectId=`: only team-level keys need it (see CallerProject). */
export class TenantQuery {
  @ApiPropertyOptional({
    description:
      'The project whose collections to use; required with a team-level API key, defaults to the key’s project',
    example: 'proj_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
    pattern: ID_PATTERNS.project.source,
  })
  @IsOptional()
  @Matches(ID_PATTERNS.project, { message: 'projectId must be a project id (proj_…)' })
  projectId?: string;
}
