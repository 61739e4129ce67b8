import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, SearchBody } from '@genasset/http';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { SearchModelsResponse } from './dto/search-models.response';
import { SearchModelsService } from './search-models.service';

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
