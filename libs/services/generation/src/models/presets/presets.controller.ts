import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { ModelEmptyResponse } from '../dto/model-responses.dto';
import { CreatePresetBody, ModelPresetResponse, ModelPresetsResponse, UpdatePresetBody } from './preset.dto';
import { PresetsService } from './presets.service';

@ApiTags('Models')
@Authenticated()
@ApiErrorResponses(400, 401, 403, 404)
@Controller('models/:modelId/presets')
export class PresetsController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly presets: PresetsService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'GetModelPresetsByModelId', summary: 'The presets of a model' })
  @ApiOkResponse({ type: ModelPresetsResponse })
  async list(@CurrentPrincipal() p: Principal, @IdParam('modelId') modelId: string, @Query() query: ModelsQuery) {
    return this.presets.list(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'PostModelPresetByModelId', summary: 'Keep a generation job’s parameters as a preset' })
  @ApiOkResponse({ type: ModelPresetResponse })
  async create(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: CreatePresetBody,
  ) {
    return this.presets.create(await this.scopes.resolve(p, query.projectId), modelId, body);
  }

  @Put(':presetId')
  @ApiOperation({ operationId: 'PutModelPresetByModelIdAndPresetId', summary: 'Make a preset the default, or not' })
  @ApiOkResponse({ type: ModelPresetResponse })
  async update(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @IdParam('presetId') presetId: string,
    @Query() query: ModelsQuery,
    @Body() body: UpdatePresetBody,
  ) {
    return this.presets.update(await this.scopes.resolve(p, query.projectId), modelId, presetId, body);
  }

  @Delete(':presetId')
  @ApiOperation({ operationId: 'DeleteModelPresetByModelIdAndPresetId', summary: 'Delete a preset' })
  @ApiOkResponse({ type: ModelEmptyResponse, description: '{}' })
  async delete(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @IdParam('presetId') presetId: string,
    @Query() query: ModelsQuery,
  ) {
    return this.presets.delete(await this.scopes.resolve(p, query.projectId), modelId, presetId);
  }
}
