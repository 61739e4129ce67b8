import { Injectable } from '@nestjs/common';
import type { AssetObject, AssetsApi, TenantRef } from '@genasset/contracts';
import { isAssetId } from '../core/asset-ids';
import { AssetRepository } from '../core/asset-repository';
import { UploadService } from '../upload/upload.service';

/** asset-service's side of the internal AssetsApi (in-process; served over HTTP by InternalAssetsController). */
@Injectable()
export class AssetsApiService implements AssetsApi {
  constructor(
    private readonly assets: AssetRepository,
    private readonly uploads: UploadService,
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
}

/** The size read from an image's bytes when it was stored (`properties`); other kinds have none. */
function pixelSize(properties: unknown): { width?: number; height?: number } {
  const { width, height } = (properties ?? {}) as { width?: unknown; height?: unknown };
  return typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0 ? { width, height } : {};
}

function unique(assetIds: readonly string[]): string[] {
  return [...new Set(assetIds.filter(isAssetId))];
}
