import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses } from '@genasset/http';
import { flag } from '../core/asset-presenter';
import { AssetResponseQuery } from '../core/asset-queries';
import { LIMITS } from '../core/limits';
import { TenantScopes } from '../core/tenant-scope';
import { UploadAssetBody } from './dto/upload-asset.body';
import { UploadService } from './upload.service';
import { AssetResponse } from '../core/asset.response';

@ApiTags('assets')
@Controller('assets')
export class UploadController {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly uploads: UploadService,
  ) {}

  @Post()
  @HttpCode(200)
  // Base64 of a 25 MiB image does not fit the app's 1 MiB body limit.
  @RouteConfig({ bodyLimit: LIMITS.uploadBodyBytes })
  @Authenticated()
  @ApiOperation({ summary: 'Upload an image (data URL or base64; format sniffed from the bytes) or a canvas (stringified JSON)' })
  @ApiOkResponse({ type: AssetResponse })
  @ApiErrorResponses(400, 401, 404, 413)
  async upload(@CurrentPrincipal() principal: Principal, @Query() query: AssetResponseQuery, @Body() body: UploadAssetBody) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return { asset: await this.uploads.upload(scope, body, flag(query.originalAssets)) };
  }
}
