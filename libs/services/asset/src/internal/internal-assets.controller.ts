import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { InternalTokenGuard } from '@genasset/internal-api';
import { CleanupSweeper } from '../objects/cleanup-sweeper';
import { AssetsApiService } from './assets-api.service';
import { CopyAssetsBody, ExistingAssetsBody, UploadImageBody } from './dto/existing.dto';
import { LIMITS } from '../core/limits';

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

  @Post('views')
  @HttpCode(200)
  async views(@Body() body: ExistingAssetsBody) {
    return { assets: await this.api.views(body.tenant, body.assetIds) };
  }

  @Post('embeddings')
  @HttpCode(200)
  async embeddings(@Body() body: ExistingAssetsBody) {
    return { embeddings: await this.api.embeddings(body.tenant, body.assetIds) };
  }

  @Post('copy')
  @HttpCode(200)
  async copy(@Body() body: CopyAssetsBody) {
    return { copies: await this.api.copy(body.tenant, body.assetIds, body.targetProjectId) };
  }

  @Post('upload-image')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: LIMITS.uploadBodyBytes })
  async uploadImage(@Body() body: UploadImageBody) {
    return this.api.uploadImage(body.tenant, { data: body.data, ...(body.name ? { name: body.name } : {}) });
  }

  /** Operators: run the storage cleanup queue now instead of at its next minute. */
  @Post('cleanup')
  @HttpCode(200)
  async cleanup() {
    return { deleted: await this.sweeper.runOnce() };
  }
}

