import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { ModelListResponse, ModelResponse } from '../dto/model-responses.dto';
import { GetBulkModelsBody, PublicModelsQuery } from './listing.dto';
import { ModelListingService } from './model-listing.service';

@ApiTags('Models')
@Controller('models')
export class ModelListingController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly listing: ModelListingService,
  ) {}

  // Credential-free, as GET /v1/assets/public: public models are everyone's to read.
  @Get('public')
  @ApiOperation({ operationId: 'GetPublicModels', summary: 'Every team’s public models (no credentials needed)' })
  @ApiOkResponse({ type: ModelListResponse })
  @ApiErrorResponses(400)
  listPublic(@Query() query: PublicModelsQuery) {
    return this.listing.listPublic(query);
  }

  @Get('public/:modelId')
  @ApiOperation({ operationId: 'GetPublicModelsByModelId', summary: 'A public model (no credentials needed)' })
  @ApiOkResponse({ type: ModelResponse })
  @ApiErrorResponses(400, 404)
  getPublic(@IdParam('modelId') modelId: string) {
    return this.listing.getPublic(modelId);
  }

  @Post('get-bulk')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ operationId: 'PostModelsGetBulk', summary: 'Several models by id (the project’s, and public ones)' })
  @ApiOkResponse({ type: ModelListResponse, description: '{ models } (with minimal: true, each model is { id, name, type } only)' })
  @ApiErrorResponses(400, 401, 403)
  async getBulk(@CurrentPrincipal() p: Principal, @Query() query: ModelsQuery, @Body() body: GetBulkModelsBody) {
    return this.listing.getBulk(await this.scopes.resolve(p, query.projectId), body);
  }
}
