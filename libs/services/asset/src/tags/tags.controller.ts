import { Body, Controller, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectQuery } from '../core/asset-queries';
import { TenantScopes } from '../core/tenant-scope';
import { UpdateTagsBody, UpdateTagsResponse } from './dto/tags.dto';
import { TagsService } from './tags.service';

@ApiTags('assets')
@Controller('assets/:assetId/tags')
export class TagsController {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly tags: TagsService,
  ) {}

  @Put()
  @Authenticated()
  @ApiOperation({ summary: 'Add and/or delete tags' })
  @ApiOkResponse({ type: UpdateTagsResponse })
  @ApiErrorResponses(400, 401, 404, 409)
  async update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('assetId') assetId: string,
    @Query() query: ProjectQuery,
    @Body() body: UpdateTagsBody,
  ) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return this.tags.update(scope, assetId, body);
  }
}
