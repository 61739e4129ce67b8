import { Inject, Injectable } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { ASSETS_API, prefixedId, type AssetsApi, type TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { callInternal } from '../common/internal-errors';
import { COLLECTION_LIMITS } from '../common/limits';
import { collectionNotFound, itemsNotFound } from '../common/not-found';
import { AssetTombstones } from '../facts/asset-tombstones.repository';
import { MembershipFacts } from '../facts/membership-facts';
import type { Collection } from '../generated/prisma/client';
import { toCollectionView } from './collection.view';
import { CollectionsRepository } from './collections.repository';
import type { CreateCollectionDto } from './dto/create-collection.dto';
import type { CollectionListResponse, CollectionResponse } from './dto/collection.response';
import type { ListCollectionsQuery } from './dto/list-collections.query';
import type { UpdateCollectionDto } from './dto/update-collection.dto';
import { decodePageToken, encodePageToken } from './pagination-token';

/** Collections themselves: create, read, rename, re-thumbnail, delete. Membership is in membership/. */
@Injectable()
export class CollectionsService {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly collections: CollectionsRepository,
    private readonly tombstones: AssetTombstones,
    private readonly facts: MembershipFacts,
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
    @Inject(PROCESS_ENV) env: NodeJS.ProcessEnv,
  ) {
    this.publicBaseUrl = env.PUBLIC_BASE_URL ?? '';
  }

  async list(tenant: TenantRef, query: ListCollectionsQuery): Promise<CollectionListResponse> {
    const pageSize = query.pageSize ?? COLLECTION_LIMITS.pageSize.default;
    const after = query.paginationToken === undefined ? undefined : decodePageToken(query.paginationToken);
    // One row more than asked tells whether another page exists without a count.
    const rows = await this.collections.page(tenant.projectId, pageSize + 1, after);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      collections: page.map((row) => this.view(row)),
      ...(rows.length > pageSize && last ? { nextPaginationToken: encodePageToken(last) } : {}),
    };
  }

  async create(tenant: TenantRef, body: CreateCollectionDto): Promise<CollectionResponse> {
    const row = await this.collections.create({
      id: prefixedId('collection'),
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      name: body.name,
      createdAt: new Date(),
    });
    return { collection: this.view(row) };
  }

  async get(tenant: TenantRef, id: string): Promise<CollectionResponse> {
    return { collection: this.view(await this.require(tenant, id)) };
  }

  async update(tenant: TenantRef, id: string, body: UpdateCollectionDto): Promise<CollectionResponse> {
    if (body.name === undefined && body.thumbnail === undefined) {
      throw ApiError.validation([
        { field: 'name', messages: ['give name and/or thumbnail'] },
        { field: 'thumbnail', messages: ['give name and/or thumbnail'] },
      ]);
    }
    const thumbnail = body.thumbnail;
    if (typeof thumbnail === 'string') {
      // The collection first: a foreign collection is a 404 before anything is said about assets.
      await this.require(tenant, id);
      const existing = await callInternal('asset-service', () => this.assets.existing(tenant, [thumbnail]));
      if (!existing.includes(thumbnail)) throw itemsNotFound('asset', [thumbnail]);
    }
    const row = await this.collections.transaction(async (tx) => {
      if (typeof thumbnail === 'string' && (await this.tombstones.deletedAmong(tx, [thumbnail])).length) {
        throw itemsNotFound('asset', [thumbnail]);
      }
      // Locked and read first: updatedAt moves only when the name or the thumbnail actually changes.
      if (!(await this.collections.lock(tx, tenant.projectId, id))) return undefined;
      const current = await this.collections.find(tenant.projectId, id, tx);
      if (!current) return undefined;
      const changes = {
        ...(body.name !== undefined && body.name !== current.name ? { name: body.name } : {}),
        ...(thumbnail !== undefined && thumbnail !== current.thumbnailAssetId
          ? { thumbnailAssetId: thumbnail }
          : {}),
      };
      if (!Object.keys(changes).length) return current;
      return this.collections.update(tenant.projectId, id, { ...changes, updatedAt: new Date() }, tx);
    });
    if (!row) throw collectionNotFound(id);
    return { collection: this.view(row) };
  }

  async delete(tenant: TenantRef, id: string): Promise<Record<string, never>> {
    // The row (its memberships cascade) and the collection.deleted fact commit together.
    const deleted = await this.collections.transaction(async (tx) => {
      if (!(await this.collections.delete(tenant.projectId, id, tx))) return false;
      await this.facts.deleted(tx, tenant, id);
      return true;
    });
    if (!deleted) throw collectionNotFound(id);
    return {};
  }

  private async require(tenant: TenantRef, id: string): Promise<Collection> {
    const row = await this.collections.find(tenant.projectId, id);
    if (!row) throw collectionNotFound(id);
    return row;
  }

  private view(row: Collection) {
    return toCollectionView(row, this.publicBaseUrl);
  }
}
