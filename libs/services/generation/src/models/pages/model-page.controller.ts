import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { ModelPageService } from './model-page.service';
import { ModelDescriptionResponse, ModelExamplesResponse, PutDescriptionBody, PutExamplesBody } from './page.dto';

@ApiTags('Models')
@Authenticated()
@ApiErrorResponses(400, 401, 403, 404)
@Controller('models/:modelId')
export class ModelPageController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly pages: ModelPageService,
  ) {}

  @Get('description')
  @ApiOperation({ operationId: 'GetModelsDescriptionByModelId', summary: 'The markdown description of a model' })
  @ApiOkResponse({ type: ModelDescriptionResponse })
  async description(@CurrentPrincipal() p: Principal, @IdParam('modelId') modelId: string, @Query() query: ModelsQuery) {
    return this.pages.description(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Put('description')
  @ApiOperation({ operationId: 'PutModelsDescriptionByModelId', summary: 'Replace the markdown description' })
  @ApiOkResponse({ type: ModelDescriptionResponse })
  async setDescription(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: PutDescriptionBody,
  ) {
    return this.pages.setDescription(await this.scopes.resolve(p, query.projectId), modelId, body.description);
  }

  @Get('examples')
  @ApiOperation({ operationId: 'GetModelsExamplesByModelId', summary: 'The example assets of a model' })
  @ApiOkResponse({ type: ModelExamplesResponse })
  async examples(@CurrentPrincipal() p: Principal, @IdParam('modelId') modelId: string, @Query() query: ModelsQuery) {
    return this.pages.examples(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Put('examples')
  @ApiOperation({ operationId: 'PutModelsExamplesByModelId', summary: 'Set (add, remove, order) the example assets' })
  @ApiOkResponse({ type: ModelExamplesResponse })
  async setExamples(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: PutExamplesBody,
  ) {
    return this.pages.setExamples(await this.scopes.resolve(p, query.projectId), modelId, body.assetIds);
  }
}
