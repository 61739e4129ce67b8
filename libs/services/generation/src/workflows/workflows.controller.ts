import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { DRY_RUN_STATUS } from '../generate/generate.service';
import { ProjectScopes } from '../generate/project-scope';
import { RunWorkflowBody, RunWorkflowDryRunResponse, RunWorkflowQuery, RunWorkflowResponse } from './run/run-inputs';
import { RunWorkflow } from './run/run-workflow';
import {
  CreateWorkflowBody,
  ListWorkflowsQuery,
  UpdateWorkflowBody,
  WorkflowEmptyResponse,
  WorkflowResponse,
  WorkflowsQuery,
  WorkflowsResponse,
} from './workflow.dto';
import { WorkflowsService } from './workflows.service';

/** `/v1/workflows`: a project's stored graphs of generation steps (docs/workflows.md). */
@ApiTags('Workflows')
@Authenticated()
@ApiErrorResponses(400, 401, 403, 404)
@Controller('workflows')
export class WorkflowsController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly workflows: WorkflowsService,
    private readonly runs: RunWorkflow,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'GetWorkflows', summary: 'List workflows' })
  @ApiOkResponse({ type: WorkflowsResponse })
  async list(@CurrentPrincipal() p: Principal, @Query() query: ListWorkflowsQuery) {
    return this.workflows.list(await this.scopes.resolve(p, query.projectId), query);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'PostWorkflows', summary: 'Create a workflow' })
  @ApiOkResponse({ type: WorkflowResponse })
  async create(@CurrentPrincipal() p: Principal, @Query() query: WorkflowsQuery, @Body() body: CreateWorkflowBody) {
    return this.workflows.create(await this.scopes.resolve(p, query.projectId), body);
  }

  @Get(':workflowId')
  @ApiOperation({ operationId: 'GetWorkflowsByWorkflowId', summary: 'Get a workflow' })
  @ApiOkResponse({ type: WorkflowResponse })
  async get(@CurrentPrincipal() p: Principal, @IdParam('workflowId') id: string, @Query() query: WorkflowsQuery) {
    return this.workflows.get(await this.scopes.resolve(p, query.projectId), id);
  }

  @Put(':workflowId')
  @ApiOperation({ operationId: 'PutWorkflowsByWorkflowId', summary: 'Update a workflow' })
  @ApiOkResponse({ type: WorkflowResponse })
  async update(
    @CurrentPrincipal() p: Principal,
    @IdParam('workflowId') id: string,
    @Query() query: WorkflowsQuery,
    @Body() body: UpdateWorkflowBody,
  ) {
    return this.workflows.update(await this.scopes.resolve(p, query.projectId), id, body);
  }

  @Delete(':workflowId')
  @ApiOperation({ operationId: 'DeleteWorkflowsByWorkflowId', summary: 'Delete a workflow' })
  @ApiOkResponse({ type: WorkflowEmptyResponse, description: '{}' })
  async delete(@CurrentPrincipal() p: Principal, @IdParam('workflowId') id: string, @Query() query: WorkflowsQuery) {
    return this.workflows.delete(await this.scopes.resolve(p, query.projectId), id);
  }

  @Put(':workflowId/run')
  @ApiOperation({
    operationId: 'PutWorkflowRunByWorkflowId',
    summary: 'Run a workflow',
    description: 'Checks the inputs, prices every step and starts one job (jobType workflow) charged the sum; its steps run as jobs of their own (docs/workflows.md).',
  })
  @ApiOkResponse({ type: RunWorkflowResponse })
  @ApiResponse({ status: DRY_RUN_STATUS, description: 'Dry run (dryRun=true): the run’s cost; nothing created or charged', type: RunWorkflowDryRunResponse })
  @ApiErrorResponses(402)
  async run(
    @CurrentPrincipal() p: Principal,
    @IdParam('workflowId') id: string,
    @Query() query: RunWorkflowQuery,
    @Body() body: RunWorkflowBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const answer = await this.runs.execute(await this.scopes.resolve(p, query.projectId), id, body ?? {}, query.dryRun);
    if (!answer.dryRun) return answer.body;
    void reply.status(DRY_RUN_STATUS);
    return answer.price;
  }
}
