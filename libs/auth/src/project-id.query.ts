import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { idMessage, idPattern } from '@genasset/http';

/**
 * The `projectId` query property of every route acting on a project's
 * resources, declared once: a project id (`proj_…`, else 400 naming it),
 * resolved by AccessPolicy.actingProject.
 */
export function ProjectIdQuery(
  what = 'to act on',
  withTeamKey = 'required with a team-level API key',
): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      description: `The project ${what}: ${withTeamKey}; a project key may name only its own project (another answers 404)`,
      example: 'proj_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
      pattern: idPattern('projectId').source,
    }),
    IsOptional(),
    Matches(idPattern('projectId'), { message: idMessage('projectId') }),
  );
}
