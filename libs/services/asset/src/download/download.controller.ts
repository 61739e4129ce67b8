import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectQuery } from '../core/asset-queries';
import type { TargetFormat } from '../core/images';
import { TenantScopes } from '../core/tenant-scope';
import { DownloadService } from './download.service';
import { DownloadAssetBody, DownloadLinkResponse } from './dto/download.dto';

@ApiTags('assets')
@Controller('assets/:assetId/download')
export class DownloadController {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly downloads: DownloadService,
  ) {}

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'A time-limited link to the image converted to targetFormat (png, jpeg, jpg, webp, avif, tiff, gif)' })
  @ApiOkResponse({ type: DownloadLinkResponse })
  @ApiErrorResponses(400, 401, 404)
  async download(
    @CurrentPrincipal() principal: Principal,
    @IdParam('assetId') assetId: string,
    @Query() query: ProjectQuery,
    @Body() body: DownloadAssetBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return this.downloads.link(scope, assetId, body.targetFormat as TargetFormat);
  }
}
