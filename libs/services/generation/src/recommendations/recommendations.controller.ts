import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses } from '@genasset/http';
import { ProjectScopes } from '../generate/project-scope';
import { RecommendationsQuery } from './recommendations.query';
import { RecommendationsResponse } from './recommendations.response';
import { RecommendationsService } from './recommendations.service';

@ApiTags('Models')
@Authenticated()
@ApiErrorResponses(400, 401, 404)
@Controller('recommendations/models')
export class RecommendationsController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly recommendations: RecommendationsService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'GetRecommendationsModels',
    summary: 'Models matching the filters, most used by the project’s jobs first (docs/models.md, "Recommendations")',
  })
  @ApiOkResponse({ type: RecommendationsResponse })
  async list(@CurrentPrincipal() p: Principal, @Query() query: RecommendationsQuery) {
    return this.recommendations.recommend(await this.scopes.resolve(p, query.projectId), query);
  }
}
