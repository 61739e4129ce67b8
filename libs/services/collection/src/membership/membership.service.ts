import { Inject, Injectable } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { ASSETS_API, MODELS_API, type AssetsApi, type ModelsApi, type TenantRef } from '@genasset/contracts';
import { CollectionsRepository } from '../collections/collections.repository';
import { toCollectionView } from '../collections/collection.view';
import type { CollectionResponse } from '../collections/dto/collection.response';
import { callInternal } from '../common/internal-errors';
import { collectionNotFound, itemsNotFound } from '../common/not-found';
import { AssetTombstones } from '../facts/asset-tombstones.repository';
import { MembershipFacts } from '../facts/membership-facts';
import { ModelTombstones } from '../facts/model-tombstones.repository';
import type { Collection } from '../generated/prisma/client';
import { MembershipRepository, type ItemKind } from './membership.repository';

/**
 * Adding and removing a collection's assets and models. Adds are all or
 * nothing: every id must be an item of the caller's project, else a 404 names
 * the ones that are not and nothing is stored. Ids already in the collection
 * are skipped (adding is idempotent); removing an id that is not there is a
 * no-op. Both answer with the collection as it now is.
 */
@Injectable()
export class MembershipService {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly collections: CollectionsRepository,
    private readonly membership: MembershipRepository,
    private readonly tombstones: AssetTombstones,
    private readonly modelTombstones: ModelTombstones,
    private readonly facts: MembershipFacts,
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
    @Inject(MODELS_API) private readonly models: ModelsApi,
    @Inject(PROCESS_ENV) env: NodeJS.ProcessEnv,
  ) {
    this.publicBaseUrl = env.PUBLIC_BASE_URL ?? '';
  }

  async add(
    tenant: TenantRef,
    collectionId: string,
    kind: ItemKind,
    requested: readonly string[],
  ): Promise<CollectionResponse> {
    const ids = [...new Set(requested)];
    // The collection first: a foreign collection is a 404 before anything is said about items.
    if (!(await this.collections.find(tenant.projectId, collectionId)))
      throw collectionNotFound(collectionId);
    // Asked before the transaction: no database transaction waits on another service's answer.
    const existing = new Set(await this.existing(tenant, kind, ids));
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length) throw itemsNotFound(kind, missing);

    const row = await this.collections.transaction(async (tx) => {
      if (!(await this.collections.lock(tx, tenant.projectId, collectionId)))
        throw collectionNotFound(collectionId);
      if (kind === 'asset') {
        // asset-service may have deleted one since it answered, and this service applied the fact.
        const deleted = await this.tombstones.deletedAmong(tx, ids);
        if (deleted.length) throw itemsNotFound('asset', deleted);
      } else {
        // Likewise for a model the registry deleted since it answered.
        const deleted = await this.modelTombstones.deletedAmong(tx, ids);
        if (deleted.length) throw itemsNotFound('model', deleted);
      }
      const at = new Date();
      const added = await this.membership.add(tx, collectionId, kind, ids, at);
      // Every id is a member now: the fact says so (applying it twice changes nothing).
      if (added) await this.facts.changed(tx, tenant, collectionId, kind, { added: ids });
      return added
        ? this.membership.adjustCount(tx, collectionId, kind, added, at)
        : this.collections.find(tenant.projectId, collectionId, tx);
    });
    return this.respond(row, collectionId);
  }

  async remove(
    tenant: TenantRef,
    collectionId: string,
    kind: ItemKind,
    requested: readonly string[],
  ): Promise<CollectionResponse> {
    const ids = [...new Set(requested)];
    // No check with the owner: an item deleted or never added simply is not there to remove.
    const row = await this.collections.transaction(async (tx) => {
      if (!(await this.collections.lock(tx, tenant.projectId, collectionId)))
        throw collectionNotFound(collectionId);
      const removed = await this.membership.remove(tx, collectionId, kind, ids);
      if (removed) await this.facts.changed(tx, tenant, collectionId, kind, { removed: ids });
      return removed
        ? this.membership.adjustCount(tx, collectionId, kind, -removed, new Date())
        : this.collections.find(tenant.projectId, collectionId, tx);
    });
    return this.respond(row, collectionId);
  }

  private existing(tenant: TenantRef, kind: ItemKind, ids: string[]): Promise<string[]> {
    return kind === 'asset'
      ? callInternal('asset-service', () => this.assets.existing(tenant, ids))
      : callInternal('generation-service', () => this.models.existing(tenant, ids));
  }

  private respond(row: Collection | null | undefined, collectionId: string): CollectionResponse {
    if (!row) throw collectionNotFound(collectionId);
    return { collection: toCollectionView(row, this.publicBaseUrl) };
  }
}
