import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags, IntersectionType } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses } from '@genasset/http';
import { AssetResponseQuery } from '../core/asset-queries';
import { AssetDto } from '../core/asset.response';
import { LIMITS } from '../core/limits';
import { SearchBody, SearchPageFields } from '@genasset/persistence';
import { SearchAssetsService } from './search-assets.service';

class AssetHitDto extends AssetDto {
  @ApiProperty() teamId!: string;
  @ApiProperty({ type: [String], description: 'Detected NSFW categories (none are detected: always [])' }) nsfw!: string[];
  @ApiProperty({ description: 'Relevance: (1 - ratio) · text + ratio · image similarity, in [0, 1]' }) score!: number;
}

class SearchAssetsResponse extends IntersectionType(SearchPageFields) {
  @ApiProperty({ type: [AssetHitDto] }) hits!: AssetHitDto[];
}

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
