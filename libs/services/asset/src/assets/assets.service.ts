import { Injectable } from '@nestjs/common';
import type { Principal } from '@genasset/auth';
import { ApiError } from '@genasset/http';
import { AssetPresenter, type AssetView } from '../core/asset-presenter';
import { AssetRepository, type AssetRow } from '../core/asset.repository';
import { TARGET_FORMATS } from '../core/images';
import type { ReadScope } from '../core/read-scope';
import { TenantScopes } from '../core/tenant-scope';
import { AssetEmbeddings } from '../embeddings/asset-embeddings';
import { AssetFacts } from '../facts/asset-facts';
import { objectKeys } from '../objects/object-keys';
import { StoredObjects } from '../objects/stored-objects';

/** Every object an asset may own: original, rendition, thumbnail, cached download conversions. */
export function objectsOf(asset: Pick<AssetRow, 'id' | 'projectId' | 'storageKey' | 'renditionKey' | 'thumbnailKey'>): string[] {
  const downloads = [...new Set(Object.values(TARGET_FORMATS).map((f) => f.extension))].map((ext) =>
    objectKeys.download(asset.projectId, asset.id, ext),
  );
  return [asset.storageKey, asset.renditionKey, asset.thumbnailKey, ...downloads].filter((k): k is string => !!k);
}

/** Details, bulk reads and bulk deletion. */
@Injectable()
export class AssetsService {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly assets: AssetRepository,
    private readonly presenter: AssetPresenter,
    private readonly facts: AssetFacts,
    private readonly objects: StoredObjects,
    private readonly embeddings: AssetEmbeddings,
  ) {}

  /** Own-project assets, or public/unlisted assets of anyone (public access: those only). */
  async get(
    principal: Principal,
    assetId: string,
    options: { projectId?: string; original: boolean; withEmbedding: boolean },
  ): Promise<AssetView> {
    const scope = await this.readScope(principal, options.projectId);
    const row = await this.assets.findReadable(scope, assetId, { withEmbedding: options.withEmbedding });
    if (!row) throw ApiError.notFound(`asset ${assetId} not found`, assetId);
    const withVector = options.withEmbedding ? await this.embeddings.ensure(row) : row;
    return this.presenter.view(withVector, {
      original: options.original,
      withEmbedding: options.withEmbedding,
      viewer: scope.kind === 'project' ? scope.projectId : null,
    });
  }

  /** The readable ones among `assetIds`, in request order; unknown and foreign ids are left out. */
  async getBulk(principal: Principal, assetIds: string[], options: { projectId?: string; original: boolean }): Promise<AssetView[]> {
    const scope = await this.readScope(principal, options.projectId);
    const rows = await this.assets.findManyReadable(scope, [...new Set(assetIds)]);
    return this.presenter.views(rows, { original: options.original, viewer: scope.kind === 'project' ? scope.projectId : null });
  }

  /**
   * All or nothing: any id not in the project answers 404 naming it and
   * nothing is deleted. Rows, snapshots and one `asset.deleted` fact per
   * asset commit together; the objects are deleted right after (see StoredObjects).
   */
  async delete(principal: Principal, assetIds: string[], projectId?: string): Promise<void> {
    const scope = await this.scopes.resolve(principal, projectId);
    const ids = [...new Set(assetIds)];
    const keys = await this.assets.transaction(async (tx) => {
      const rows = await this.assets.lockManyInProject(tx, scope.projectId, ids);
      if (rows.length !== ids.length) {
        const found = new Set(rows.map((r) => r.id));
        const missing = ids.filter((id) => !found.has(id));
        throw new ApiError(404, 'not_found', `asset${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}; nothing was deleted`, {
          assetIds: missing,
        });
      }
      await this.assets.deleteInProject(tx, scope.projectId, ids);
      const owned = rows.flatMap(objectsOf);
      await this.objects.release(tx, owned);
      await this.facts.deleted(tx, rows);
      return owned;
    });
    await this.objects.flush(keys);
  }

  private async readScope(principal: Principal, projectId?: string): Promise<ReadScope> {
    // Public access has no project: a projectId it sends selects nothing and is ignored.
    if (principal.kind === 'public') return { kind: 'public' };
    return { kind: 'project', projectId: (await this.scopes.resolve(principal, projectId)).projectId };
  }
}
