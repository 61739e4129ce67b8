import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, SearchBody } from '@genasset/http';
import { AssetResponseQuery } from '../core/asset-queries';
import { LIMITS } from '../core/limits';
import { SearchAssetsResponse } from './dto/search-assets.response';
import { SearchAssetsService } from './search-assets.service';

@ApiTags('search')
@Controller('search')
export class SearchController {
  constructor(private readonly search: SearchAssetsService) {}

  @Post('assets')
  @HttpCode(200)
  // Reference images may come inline as data URLs: the upload route's body limit.
  @RouteConfig({ bodyLimit: LIMITS.uploadBodyBytes })
  @Authenticated()
  @ApiOperation({ summary: "Search the project's assets (or every organisation's public ones): full text, similar images, or both (docs/search.md)" })
  @ApiOkResponse({ type: SearchAssetsResponse })
  @ApiErrorResponses(400, 401, 404)
  assets(@CurrentPrincipal() principal: Principal, @Query() query: AssetResponseQuery, @Body() body: SearchBody) {
    return this.search.execute(principal, query.projectId, query.originalAssets, body);
  }
}
