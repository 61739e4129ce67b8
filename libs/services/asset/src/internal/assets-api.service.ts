import { Injectable } from '@nestjs/common';
import type { AssetCopy, AssetEmbedding, AssetObject, AssetsApi, TenantRef } from '@genasset/contracts';
import { CopyService } from '../copy/copy.service';
import { isAssetId } from '../core/asset-ids';
import { AssetPresenter } from '../core/asset-presenter';
import { AssetRepository } from '../core/asset.repository';
import { AssetEmbeddings } from '../embeddings/asset-embeddings';
import { UploadService } from '../upload/upload.service';

/** asset-service's side of the internal AssetsApi (in-process; served over HTTP by InternalAssetsController). */
@Injectable()
export class AssetsApiService implements AssetsApi {
  constructor(
    private readonly assets: AssetRepository,
    private readonly uploads: UploadService,
    private readonly presenter: AssetPresenter,
    private readonly embedder: AssetEmbeddings,
    private readonly copies: CopyService,
  ) {}

  /** POST /v1/assets on behalf of another service (generation-service: training images sent as data URLs). */
  async uploadImage(tenant: TenantRef, image: { data: string; name?: string }): Promise<{ assetId: string }> {
    const scope = {
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      authorId: tenant.authorId ?? 'internal',
      role: 'member' as const,
    };
    const asset = await this.uploads.upload(
      scope,
      { image: image.data, ...(image.name ? { name: image.name } : {}) },
      true,
    );
    return { assetId: asset.id };
  }

  /** Ids among `assetIds` that exist in the tenant's project, in the given order; malformed ids simply do not exist. */
  async existing(tenant: TenantRef, assetIds: readonly string[]): Promise<string[]> {
    return this.assets.existingIds(tenant.projectId, unique(assetIds), tenant.teamId);
  }

  /** Claim check for executors: the original object of each asset of the tenant's project, in the given order, with its pixel size. */
  async objects(tenant: TenantRef, assetIds: readonly string[]): Promise<AssetObject[]> {
    const rows = await this.assets.originals(tenant.projectId, unique(assetIds), tenant.teamId);
    return rows.map((r) => ({ assetId: r.id, key: r.storageKey, mimeType: r.mimeType, kind: r.kind, type: r.type, ...pixelSize(r.properties) }));
  }

  async views(tenant: TenantRef, assetIds: readonly string[]): Promise<Record<string, unknown>[]> {
    const rows = await this.inProject(tenant, assetIds);
    return (await this.presenter.views(rows, { viewer: tenant.projectId })) as unknown as Record<string, unknown>[];
  }

  async embeddings(tenant: TenantRef, assetIds: readonly string[]): Promise<AssetEmbedding[]> {
    const found: AssetEmbedding[] = [];
    for (const id of unique(assetIds)) {
      const row = await this.assets.findInProject(tenant.projectId, id, { withEmbedding: true });
      if (!row || row.teamId !== tenant.teamId) continue;
      const filled = await this.embedder.ensure(row);
      if (filled.embedding?.length) found.push({ assetId: id, embedding: filled.embedding });
    }
    return found;
  }

  /** One asset at a time: each copy reads and writes its objects, and a failure leaves the ones before it copied (the caller discards them). */
  async copy(tenant: TenantRef, assetIds: readonly string[], targetProjectId: string): Promise<AssetCopy[]> {
    const target = { teamId: tenant.teamId, projectId: targetProjectId, authorId: tenant.authorId ?? 'internal' };
    const copied: AssetCopy[] = [];
    for (const row of await this.inProject(tenant, assetIds))
      copied.push({ assetId: row.id, copyId: (await this.copies.copyRow(row, target)).id });
    return copied;
  }

  /** The rows of `assetIds` in the tenant's project, in the given order. */
  private async inProject(tenant: TenantRef, assetIds: readonly string[]) {
    const rows = [];
    for (const id of unique(assetIds)) {
      const row = await this.assets.findInProject(tenant.projectId, id);
      if (row && row.teamId === tenant.teamId) rows.push(row);
    }
    return rows;
  }
}

/** The size read from an image's bytes when it was stored (`properties`); other kinds have none. */
function pixelSize(properties: unknown): { width?: number; height?: number } {
  const { width, height } = (properties ?? {}) as { width?: unknown; height?: unknown };
  return typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0 ? { width, height } : {};
}

function unique(assetIds: readonly string[]): string[] {
  return [...new Set(assetIds.filter(isAssetId))];
}
