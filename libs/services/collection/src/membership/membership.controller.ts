import { Body, Controller, Delete, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { CollectionResponse } from '../collections/dto/collection.response';
import { CallerProject } from '../common/caller-project';
import { TenantQuery } from '../common/tenant-query.dto';
import { AssetIdsDto, ModelIdsDto } from './dto/membership.dto';
import { MembershipService } from './membership.service';

@ApiTags('Collections')
@Authenticated()
// 200 is declared on each route: a class-level @ApiOkResponse is lost under the
// default 200 that @nestjs/swagger adds to every PUT/DELETE.
@ApiErrorResponses(400, 401, 404, 503)
@Controller('collections/:collectionId')
export class MembershipController {
  constructor(
    private readonly callers: CallerProject,
    private readonly membership: MembershipService,
  ) {}

  @Put('assets')
  @ApiOkResponse({ type: CollectionResponse })
  @ApiOperation({
    summary: 'Add assets of the project to a collection',
    operationId: 'PutAssetsByCollectionId',
  })
  async addAssets(
    @CurrentPrincipal() principal: Principal,
    @IdParam('collectionId') collectionId: string,
    @Query() query: TenantQuery,
    @Body() body: AssetIdsDto,
  ): Promise<CollectionResponse> {
    return this.membership.add(
      await this.callers.resolve(principal, query.projectId),
      collectionId,
      'asset',
      body.assetIds,
    );
  }

  @Delete('assets')
  @ApiOkResponse({ type: CollectionResponse })
  @ApiOperation({ summary: 'Remove assets from a collection', operationId: 'DeleteAssetsByCollectionId' })
  async removeAssets(
    @CurrentPrincipal() principal: Principal,
    @IdParam('collectionId') collectionId: string,
    @Query() query: TenantQuery,
    @Body() body: AssetIdsDto,
  ): Promise<CollectionResponse> {
    return this.membership.remove(
      await this.callers.resolve(principal, query.projectId),
      collectionId,
      'asset',
      body.assetIds,
    );
  }

  @Put('models')
  @ApiOkResponse({ type: CollectionResponse })
  @ApiOperation({
    summary: 'Add models of the project to a collection',
    operationId: 'PutModelsByCollectionId',
  })
  async addModels(
    @CurrentPrincipal() principal: Principal,
    @IdParam('collectionId') collectionId: string,
    @Query() query: TenantQuery,
    @Body() body: ModelIdsDto,
  ): Promise<CollectionResponse> {
    return this.membership.add(
      await this.callers.resolve(principal, query.projectId),
      collectionId,
      'model',
      body.modelIds,
    );
  }

  @Delete('models')
  @ApiOkResponse({ type: CollectionResponse })
  @ApiOperation({ summary: 'Remove models from a collection', operationId: 'DeleteModelsByCollectionId' })
  async removeModels(
    @CurrentPrincipal() principal: Principal,
    @IdParam('collectionId') collectionId: string,
    @Query() query: TenantQuery,
    @Body() body: ModelIdsDto,
  ): Promise<CollectionResponse> {
    return this.membership.remove(
      await this.callers.resolve(principal, query.projectId),
      collectionId,
      'model',
      body.modelIds,
    );
  }
}
