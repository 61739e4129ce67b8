import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InternalTokenGuard } from '@genasset/internal-api';
import { CleanupSweeper } from '../objects/cleanup-sweeper';
import { AssetsApiService } from './assets-api.service';
import { ExistingAssetsBody } from './dto/existing.dto';

/** The AssetsApi over HTTP for processes that do not run asset-service (HttpAssetsApi calls it). */
@ApiExcludeController()
@UseGuards(InternalTokenGuard)
@Controller('internal/v1/assets')
export class InternalAssetsController {
  constructor(
    private readonly api: AssetsApiService,
    private readonly sweeper: CleanupSweeper,
  ) {}

  @Post('existing')
  @HttpCode(200)
  async existing(@Body() body: ExistingAssetsBody) {
    return { assetIds: await this.api.existing(body.tenant, body.assetIds) };
  }

  @Post('objects')
  @HttpCode(200)
  async objects(@Body() body: ExistingAssetsBody) {
    return { objects: await this.api.objects(body.tenant, body.assetIds) };
  }

  /** Operators: run the storage cleanup queue now instead of at its next minute. */
  @Post('cleanup')
  @HttpCode(200)
  async cleanup() {
    return { deleted: await this.sweeper.runOnce() };
  }
}

