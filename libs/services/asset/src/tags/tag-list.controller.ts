import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses } from '@genasset/http';
import { TenantScopes } from '../core/tenant-scope';
import { ListTagsQuery, ListTagsResponse } from './dto/list-tags.dto';
import { TagListService } from './tag-list.service';

@ApiTags('tags')
@Controller('tags')
export class TagListController {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly tags: TagListService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'List the tags in use in the project (assets and models) with their item counts, by name' })
  @ApiOkResponse({ type: ListTagsResponse })
  @ApiErrorResponses(400, 401, 404)
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListTagsQuery) {
    const scope = await this.scopes.resolve(principal, query.projectId);
    return this.tags.list(scope, query.pageSize, query.paginationToken);
  }
}
