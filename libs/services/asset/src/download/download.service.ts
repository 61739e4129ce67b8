import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { AssetPresenter } from '../core/asset-presenter';
import { AssetRepository, type AssetRow } from '../core/asset.repository';
import { convertImage, TARGET_FORMATS, type TargetFormat } from '../core/images';
import { LIMITS } from '../core/limits';
import type { ProjectScope } from '../core/tenant-scope';
import { objectKeys } from '../objects/object-keys';
import { StoredObjects } from '../objects/stored-objects';

export interface DownloadLink {
  /** Signed URL serving the file as an attachment named `<assetId>.<extension>`. */
  url: string;
  expiresAt: string;
  targetFormat: string;
  mimeType: string;
  size: number;
}

/**
 * POST /v1/assets/{id}/download: the image converted with sharp into
 * `targetFormat`, behind a signed URL valid one hour. The original is served
 * as it is when it already has that format; a conversion is stored beside the
 * asset and reused by later requests, and deleted with the asset.
 */
@Injectable()
export class DownloadService {
  constructor(
    private readonly assets: AssetRepository,
    private readonly objects: StoredObjects,
    private readonly presenter: AssetPresenter,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async link(scope: ProjectScope, assetId: string, targetFormat: TargetFormat): Promise<DownloadLink> {
    const row = await this.assets.findInProject(scope.projectId, assetId);
    if (!row) throw ApiError.notFound(`asset ${assetId} not found`, assetId);
    if (row.kind !== 'image') {
      throw new ApiError(400, 'not_convertible', `asset ${assetId} is not an image (${row.mimeType}); only images can be converted to ${targetFormat}`, {
        assetId,
        mimeType: row.mimeType,
      });
    }
    const format = TARGET_FORMATS[targetFormat];
    const { key, size } = row.mimeType === format.mimeType ? await this.original(row) : await this.converted(scope, row, targetFormat);
    const expiresAt = new Date(Date.now() + LIMITS.signedUrlSeconds * 1000);
    const url = await this.presenter.signedUrl(key, `${row.id}.${format.extension}`);
    return { url, expiresAt: expiresAt.toISOString(), targetFormat, mimeType: format.mimeType, size };
  }

  private async original(row: AssetRow): Promise<{ key: string; size: number }> {
    return { key: row.storageKey, size: Number((row.properties as { size?: number }).size ?? 0) };
  }

  private async converted(scope: ProjectScope, row: AssetRow, target: TargetFormat): Promise<{ key: string; size: number }> {
    const format = TARGET_FORMATS[target];
    const key = objectKeys.download(scope.projectId, row.id, format.extension);
    const cached = await this.store.head(key);
    if (cached) return { key, size: cached.contentLength };

    const source = await this.store.get(row.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of source.body) chunks.push(chunk as Buffer);
    let bytes: Buffer;
    try {
      bytes = await convertImage(Buffer.concat(chunks), target);
    } catch {
      throw new ApiError(400, 'not_convertible', `asset ${row.id} could not be converted to ${target}`, { assetId: row.id, targetFormat: target });
    }
    await this.objects.put(key, bytes, format.mimeType);
    // Keep the conversion only if the asset still exists; the row lock orders
    // this against a concurrent deletion (which releases the download keys).
    const kept = await this.assets
      .transaction(async (tx) => {
        const locked = await this.assets.lockInProject(tx, scope.projectId, row.id);
        if (locked) await this.objects.keep(tx, [key]);
        return !!locked;
      })
      .catch(async (error: unknown) => {
        await this.objects.discard([key]);
        throw error;
      });
    if (!kept) {
      await this.objects.discard([key]);
      throw ApiError.notFound(`asset ${row.id} not found`, row.id);
    }
    return { key, size: bytes.length };
  }
}
