import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { flag } from '../core/asset-presenter';
import { AssetResponseQuery, GetAssetQuery, ProjectQuery } from '../core/asset-queries';
import { AssetsService } from './assets.service';
import { DeleteAssetsBody, GetBulkBody } from './dto/asset-ids.body';
import { ListAssetsQuery } from './dto/list-assets.query';
import { ListAssetsService } from './list-assets.service';
import { AssetPageResponse, AssetResponse, AssetsResponse, EmptyResponse } from '../core/asset.response';

@ApiTags('assets')
@Controller('assets')
export class AssetsController {
  constructor(
    private readonly listing: ListAssetsService,
    private readonly assets: AssetsService,
  ) {}

  @Get()
  @Authenticated({ publicAccess: true })
  @ApiOperation({ summary: "List the project's assets, or public assets of every organisation (privacy=public or public access)" })
  @ApiOkResponse({ type: AssetPageResponse })
  @ApiErrorResponses(400, 401, 404)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListAssetsQuery) {
    return this.listing.execute(principal, query);
  }

  @Delete()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Delete up to 100 assets of the project (all or nothing)' })
  @ApiOkResponse({ type: EmptyResponse, description: '{}' })
  @ApiErrorResponses(400, 401, 404)
  async delete(@CurrentPrincipal() principal: Principal, @Query() query: ProjectQuery, @Body() body: DeleteAssetsBody) {
    await this.assets.delete(principal, body.assetIds, query.projectId);
    return {};
  }

  @Post('get-bulk')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Up to 200 assets by id, in request order; unknown ids are left out' })
  @ApiOkResponse({ type: AssetsResponse })
  @ApiErrorResponses(400, 401, 404)
  async getBulk(@CurrentPrincipal() principal: Principal, @Query() query: AssetResponseQuery, @Body() body: GetBulkBody) {
    const assets = await this.assets.getBulk(principal, body.assetIds, { projectId: query.projectId, original: flag(query.originalAssets) });
    return { assets };
  }

  @Get(':assetId')
  @Authenticated({ publicAccess: true })
  @ApiOperation({ summary: 'Asset details; with public access, public and unlisted assets only' })
  @ApiOkResponse({ type: AssetResponse })
  @ApiErrorResponses(400, 401, 404)
  async get(@CurrentPrincipal() principal: Principal, @IdParam('assetId') assetId: string, @Query() query: GetAssetQuery) {
    const asset = await this.assets.get(principal, assetId, {
      projectId: query.projectId,
      original: flag(query.originalAssets),
      withEmbedding: flag(query.withEmbedding),
    });
    return { asset };
  }
}
