import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags, IntersectionType } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses } from '@genasset/http';
import { SearchBody, SearchPageFields } from '@genasset/persistence';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { SearchModelsService } from './search-models.service';

class SearchModelsResponse extends IntersectionType(SearchPageFields) {
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Models as GET /v1/models shows them, with teamId, concepts ([]), score, and name and shortDescription always present ("" when unset)' })
  hits!: Record<string, unknown>[];
}

@ApiTags('Models')
@Controller('search')
export class SearchModelsController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly search: SearchModelsService,
  ) {}

  @Post('models')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ operationId: 'PostSearchModels', summary: "Search the project's models (or every team's public ones) by full text and filter (docs/search.md)" })
  @ApiOkResponse({ type: SearchModelsResponse })
  @ApiErrorResponses(400, 401, 403)
  async models(@CurrentPrincipal() p: Principal, @Query() query: ModelsQuery, @Body() body: SearchBody) {
    return this.search.execute(await this.scopes.resolve(p, query.projectId), body);
  }
}
