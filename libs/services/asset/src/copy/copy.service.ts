import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@genasset/auth';
import { ApiError } from '@genasset/http';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import type { Asset } from '../generated/prisma/client';
import { newAssetId } from '../core/asset-ids';
import { AssetPresenter, type AssetView } from '../core/asset-presenter';
import { AssetRepository, type AssetRow } from '../core/asset.repository';
import type { AssetKind, AssetStatus, AssetType } from '../core/asset-types';
import { AssetWriter } from '../core/asset-writer';
import { TenantScopes, type ProjectScope } from '../core/tenant-scope';
import { assetPrefix } from '../objects/object-keys';
import { StoredObjects } from '../objects/stored-objects';

/**
 * Duplicates an asset into its own project or another project the
 * credentials reach. The copy is a new asset with the same bytes (read and
 * written again: stores differ in how they copy), type, properties, name,
 * description and tags, and `metadata.originalAssetId` / `metadata.copiedAt`.
 * It starts a lineage of its own (no parent), private, outside collections,
 * unlocked and without snapshots; job and inference provenance stays with the original.
 */
@Injectable()
export class CopyService {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly assets: AssetRepository,
    private readonly writer: AssetWriter,
    private readonly objects: StoredObjects,
    private readonly presenter: AssetPresenter,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async copy(principal: Principal, assetId: string, options: { projectId?: string; targetProjectId?: string; original: boolean }): Promise<AssetView> {
    const source = await this.scopes.resolve(principal, options.projectId);
    const target = options.targetProjectId ? await this.scopes.resolve(principal, options.targetProjectId) : source;
    const row = await this.assets.findInProject(source.projectId, assetId);
    if (!row) throw ApiError.notFound(`asset ${assetId} not found`, assetId);
    const created = await this.copyRow(row, target);
    return this.presenter.view(created, { original: options.original, viewer: target.projectId });
  }

  /**
   * The copy itself, for this route and for other services (AssetsApi.copy:
   * a model copied or moved to another project takes its training images along).
   * The target is trusted: callers have checked the credentials reach it.
   */
  async copyRow(row: AssetRow, target: Pick<ProjectScope, 'teamId' | 'projectId' | 'authorId'>): Promise<Asset> {
    const id = newAssetId();
    const rekey = (key: string) => `${assetPrefix(target.projectId, id)}${key.slice(key.lastIndexOf('/') + 1)}`;
    const originals = [row.storageKey, row.renditionKey, row.thumbnailKey];
    const copies = originals.map((k) => (k ? rekey(k) : undefined));
    const stored: string[] = [];
    try {
      for (const [i, key] of originals.entries()) {
        if (!key) continue;
        const object = await this.store.get(key);
        const chunks: Buffer[] = [];
        for await (const chunk of object.body) chunks.push(chunk as Buffer);
        stored.push(copies[i]!);
        await this.objects.put(copies[i]!, Buffer.concat(chunks), object.contentType);
      }
      return await this.assets.transaction((tx) =>
        this.writer.create(tx, {
          id,
          owner: target,
          type: row.type as AssetType,
          kind: row.kind as AssetKind,
          mimeType: row.mimeType,
          status: row.status as AssetStatus,
          name: row.name ?? undefined,
          description: row.description ?? undefined,
          tags: row.tags,
          storageKey: copies[0]!,
          renditionKey: copies[1],
          thumbnailKey: copies[2],
          properties: row.properties as Record<string, unknown>,
          metadata: { ...(row.metadata as Record<string, unknown>), originalAssetId: row.id, copiedAt: new Date().toISOString() },
        }),
      );
    } catch (error) {
      await this.objects.discard(stored);
      throw error;
    }
  }
}
