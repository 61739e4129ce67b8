import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { CallerProject } from '../common/caller-project';
import { TenantQuery } from '../common/tenant-query.dto';
import { CollectionsService } from './collections.service';
import { CollectionListResponse, CollectionResponse } from './dto/collection.response';
import { CreateCollectionDto } from './dto/create-collection.dto';
import { ListCollectionsQuery } from './dto/list-collections.query';
import { UpdateCollectionDto } from './dto/update-collection.dto';

@ApiTags('Collections')
@Authenticated()
@ApiErrorResponses(400, 401, 404)
// Referenced by the update body's schema (name and/or thumbnail), which wraps it.
@ApiExtraModels(UpdateCollectionDto)
@Controller('collections')
export class CollectionsController {
  constructor(
    private readonly callers: CallerProject,
    private readonly collections: CollectionsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List collections of a team', operationId: 'GetCollections' })
  @ApiOkResponse({ type: CollectionListResponse })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListCollectionsQuery,
  ): Promise<CollectionListResponse> {
    return this.collections.list(await this.callers.resolve(principal, query.projectId), query);
  }

  // Upstream answers 200 (not 201) on every collection route.
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a new collection', operationId: 'PostCollection' })
  @ApiOkResponse({ type: CollectionResponse })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Query() query: TenantQuery,
    @Body() body: CreateCollectionDto,
  ): Promise<CollectionResponse> {
    return this.collections.create(await this.callers.resolve(principal, query.projectId), body);
  }

  @Get(':collectionId')
  @ApiOperation({ summary: 'Get the details of a collection', operationId: 'GetCollectionsByCollectionId' })
  @ApiOkResponse({ type: CollectionResponse })
  async get(
    @CurrentPrincipal() principal: Principal,
    @IdParam('collectionId') collectionId: string,
    @Query() query: TenantQuery,
  ): Promise<CollectionResponse> {
    return this.collections.get(await this.callers.resolve(principal, query.projectId), collectionId);
  }

  @Put(':collectionId')
  @ApiOperation({
    summary: 'Update the name and/or thumbnail of a collection',
    operationId: 'PutCollectionsByCollectionId',
  })
  // name and/or thumbnail: an empty body is a 400 (the service names both fields).
  @ApiBody({
    required: true,
    schema: { allOf: [{ $ref: getSchemaPath(UpdateCollectionDto) }], minProperties: 1 },
  })
  @ApiOkResponse({ type: CollectionResponse })
  // A new thumbnail is checked with asset-service: 503 while it cannot answer.
  @ApiErrorResponses(503)
  async update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('collectionId') collectionId: string,
    @Query() query: TenantQuery,
    @Body() body: UpdateCollectionDto,
  ): Promise<CollectionResponse> {
    return this.collections.update(
      await this.callers.resolve(principal, query.projectId),
      collectionId,
      body,
    );
  }

  @Delete(':collectionId')
  @ApiOperation({
    summary: 'Delete a collection (its assets and models are not deleted)',
    operationId: 'DeleteCollectionsByCollectionId',
  })
  @ApiOkResponse({ description: 'Empty object', schema: { type: 'object' } })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @IdParam('collectionId') collectionId: string,
    @Query() query: TenantQuery,
  ): Promise<Record<string, never>> {
    return this.collections.delete(
      await this.callers.resolve(principal, query.projectId),
      collectionId,
    );
  }
}
