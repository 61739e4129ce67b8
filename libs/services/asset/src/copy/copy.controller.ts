import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { flag } from '../core/asset-presenter';
import { AssetResponseQuery } from '../core/asset-queries';
import { CopyService } from './copy.service';
import { CopyAssetBody } from './dto/copy.dto';
import { AssetResponse } from '../core/asset.response';

@ApiTags('assets')
@Controller('assets/:assetId/copy')
export class CopyController {
  constructor(private readonly copies: CopyService) {}

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Duplicate an asset (same bytes) into its project or targetProjectId' })
  @ApiOkResponse({ type: AssetResponse })
  @ApiErrorResponses(400, 401, 404)
  async copy(
    @CurrentPrincipal() principal: Principal,
    @IdParam('assetId') assetId: string,
    @Query() query: AssetResponseQuery,
    @Body() body: CopyAssetBody,
  ) {
    const asset = await this.copies.copy(principal, assetId, {
      projectId: query.projectId,
      targetProjectId: body.targetProjectId,
      original: flag(query.originalAssets),
    });
    return { asset };
  }
}
