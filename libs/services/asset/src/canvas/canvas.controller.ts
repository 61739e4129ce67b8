import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { flag } from '../core/asset-presenter';
import { AssetResponseQuery } from '../core/asset-queries';
import { LIMITS } from '../core/limits';
import { TenantScopes } from '../core/tenant-scope';
import { CanvasService } from './canvas.service';
import { LockBody, LockResponse, SnapshotPageResponse, SnapshotsQuery, UnlockBody, UpdateAssetBody } from './dto/canvas.dto';
import { AssetResponse } from '../core/asset.response';

@ApiTags('assets')
@Controller('assets/:assetId')
@Authenticated()
export class CanvasController {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly canvases: CanvasService,
  ) {}

  @Put()
  @RouteConfig({ bodyLimit: LIMITS.canvasBodyBytes })
  @ApiOperation({ summary: 'Update a canvas (content, thumbnail; needs the lock while it is locked; records a snapshot) or any asset\'s name, description, privacy' })
  @ApiOkResponse({ type: AssetResponse })
  @ApiErrorResponses(400, 401, 404, 409, 413)
  async update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('assetId') assetId: string,
    @Query() query: AssetResponseQuery,
    @Body() body: UpdateAssetBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return { asset: await this.canvases.update(scope, assetId, body, flag(query.originalAssets)) };
  }

  @Put('lock')
  @ApiOperation({ summary: 'Lock a canvas until lockExpiresAt (default 5 minutes, at most 1 hour); 409 while another lock is held' })
  @ApiOkResponse({ type: LockResponse })
  @ApiErrorResponses(400, 401, 404, 409)
  async lock(
    @CurrentPrincipal() principal: Principal,
    @IdParam('assetId') assetId: string,
    @Query() query: AssetResponseQuery,
    @Body() body: LockBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return this.canvases.lock(scope, assetId, body.lockExpiresAt, flag(query.originalAssets));
  }

  @Put('unlock')
  @ApiOperation({ summary: 'Release a canvas lock: its lockId, or forceUnlock (project admins)' })
  @ApiOkResponse({ type: AssetResponse })
  @ApiErrorResponses(400, 401, 403, 404, 409)
  async unlock(
    @CurrentPrincipal() principal: Principal,
    @IdParam('assetId') assetId: string,
    @Query() query: AssetResponseQuery,
    @Body() body: UnlockBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return { asset: await this.canvases.unlock(scope, assetId, body, flag(query.originalAssets)) };
  }

  @Get('snapshots')
  @ApiOperation({ summary: 'Snapshots of a canvas, newest first (pageSize 10 to 100, default 10)' })
  @ApiOkResponse({ type: SnapshotPageResponse })
  @ApiErrorResponses(400, 401, 404)
  async snapshots(@CurrentPrincipal() principal: Principal, @IdParam('assetId') assetId: string, @Query() query: SnapshotsQuery) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return this.canvases.listSnapshots(scope, assetId, query.pageSize ?? 10, query.paginationToken);
  }
}
