import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { JobActionBody } from './dto/job-action.body';
import { JobResponse, JobsResponse } from './dto/job.response';
import { ListJobsQuery } from './dto/list-jobs.query';
import { JobsService } from './jobs.service';

@ApiTags('jobs')
@Controller('jobs')
@Authenticated()
@ApiErrorResponses(401)
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @ApiOperation({
    summary: 'List jobs of the caller’s project (project key) or team (team-level key), newest first',
  })
  @ApiOkResponse({ type: JobsResponse })
  @ApiErrorResponses(400)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListJobsQuery) {
    return this.jobs.list(principal, query);
  }

  @Get(':jobId')
  @ApiOperation({ summary: 'Get a job: status, progress, status history, input and output' })
  @ApiOkResponse({ type: JobResponse })
  @ApiErrorResponses(404)
  async get(@CurrentPrincipal() principal: Principal, @IdParam('jobId') jobId: string) {
    return { job: await this.jobs.get(principal, jobId) };
  }

  @Post(':jobId/action')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run an action on a job: cancel (refused with 409 once the job is final)' })
  @ApiOkResponse({ type: JobResponse })
  @ApiErrorResponses(400, 404, 409)
  async action(
    @CurrentPrincipal() principal: Principal,
    @IdParam('jobId') jobId: string,
    @Body() body: JobActionBody,
  ) {
    switch (body.action) {
      case 'cancel':
        return { job: await this.jobs.cancel(principal, jobId) };
    }
  }
}
