import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectQuery } from '../core/asset-queries';
import { TenantScopes } from '../core/tenant-scope';
import { DownloadStatus } from './download-status';
import {
  DownloadAssetsBody,
  DownloadRequestedResponse,
  DownloadStatusView,
} from './dto/download-assets.body';
import { RequestDownload } from './request-download';

@ApiTags('assets')
@Controller('assets/download')
export class DownloadsController {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly request: RequestDownload,
    private readonly status: DownloadStatus,
  ) {}

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary:
      'Request a zip archive of up to 1000 assets of the project; returns the job that builds it (asset.download.* webhooks follow it)',
  })
  @ApiOkResponse({ type: DownloadRequestedResponse })
  @ApiErrorResponses(400, 401, 404)
  async create(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ProjectQuery,
    @Body() body: DownloadAssetsBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return this.request.execute(scope, body);
  }

  @Get(':jobId')
  @Authenticated()
  @ApiOperation({ summary: 'Status of a batch download, and the signed URL of its archive once it is ready' })
  @ApiOkResponse({ type: DownloadStatusView })
  @ApiErrorResponses(400, 401, 404)
  async get(
    @CurrentPrincipal() principal: Principal,
    @IdParam('jobId') jobId: string,
    @Query() query: ProjectQuery,
  ): Promise<DownloadStatusView> {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return this.status.execute(scope, jobId);
  }
}
