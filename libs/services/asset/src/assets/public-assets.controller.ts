import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { AssetsService } from './assets.service';
import { PublicAssetListQuery } from './dto/list-assets.query';
import { ListAssetsService } from './list-assets.service';
import { AssetPageResponse, AssetResponse } from '../core/asset.response';

const PUBLIC = { kind: 'public' } as const;

/**
 * The deprecated credential-free routes. They behave exactly like GET /v1/assets
 * and GET /v1/assets/{id} with `Authorization: public-auth-token`, which replace them.
 */
@ApiTags('assets')
@Controller('assets/public')
export class PublicAssetsController {
  constructor(
    private readonly listing: ListAssetsService,
    private readonly assets: AssetsService,
  ) {}

  @Get()
  @ApiOperation({ deprecated: true, summary: 'Public assets of every organisation (use GET /v1/assets with public access)' })
  @ApiOkResponse({ type: AssetPageResponse })
  @ApiErrorResponses(400)
  list(@Query() query: PublicAssetListQuery) {
    return this.listing.execute(PUBLIC, query);
  }

  @Get(':assetId')
  @ApiOperation({ deprecated: true, summary: 'A public asset (use GET /v1/assets/{assetId} with public access)' })
  @ApiOkResponse({ type: AssetResponse })
  @ApiErrorResponses(400, 404)
  async get(@IdParam('assetId') assetId: string) {
    return { asset: await this.assets.get(PUBLIC, assetId, { original: false, withEmbedding: false }) };
  }
}
