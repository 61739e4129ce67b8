import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectQuery } from '../core/asset-queries';
import { TenantScopes } from '../core/tenant-scope';
import { CreateUpload } from './create-upload';
import { CreateUploadBody, UploadActionBody, UploadResponse } from './dto/upload.dto';
import { UploadActions } from './upload-actions';

@ApiTags('uploads')
@Controller('uploads')
export class UploadsController {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly creating: CreateUpload,
    private readonly actions: UploadActions,
  ) {}

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary:
      'Start a multipart upload (video, audio, 3D, large images): one signed PUT URL per part, straight to object storage',
  })
  @ApiOkResponse({ type: UploadResponse, description: 'parts: one signed PUT URL per part' })
  @ApiErrorResponses(400, 401, 404, 413)
  async create(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ProjectQuery,
    @Body() body: CreateUploadBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return { upload: await this.creating.execute(scope, body) };
  }

  @Get(':uploadId')
  @Authenticated()
  @ApiOperation({
    summary:
      'An upload: pending (with fresh part URLs), validating, imported (entityId: the asset) or failed (errorMessage)',
  })
  @ApiOkResponse({ type: UploadResponse })
  @ApiErrorResponses(400, 401, 404)
  async get(
    @CurrentPrincipal() principal: Principal,
    @IdParam('uploadId') uploadId: string,
    @Query() query: ProjectQuery,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return { upload: await this.actions.get(scope, uploadId) };
  }

  @Post(':uploadId/action')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary:
      'complete: assemble the uploaded parts (listed by the server; parts with ETags optional) and import the file; cancel: abort a pending upload',
  })
  @ApiOkResponse({ type: UploadResponse })
  @ApiErrorResponses(400, 401, 404, 409)
  async action(
    @CurrentPrincipal() principal: Principal,
    @IdParam('uploadId') uploadId: string,
    @Query() query: ProjectQuery,
    @Body() body: UploadActionBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return { upload: await this.actions.act(scope, uploadId, body) };
  }
}
