import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import type { AssetRow } from './asset-repository';
import { editCapabilitiesOf, sourceOf } from './asset-types';
import { LIMITS } from './limits';

/** An asset as the API shows it (upstream `GetAssetsByAssetIdResponse.asset`). */
export interface AssetView {
  id: string;
  /** Signed, expiring URL of the content: the web rendition, or the original with originalAssets=true. */
  url: string;
  mimeType: string;
  kind: string;
  source: string;
  status: string;
  privacy: string;
  /** The owning project. */
  ownerId: string;
  authorId: string;
  tags: string[];
  collectionIds: string[];
  editCapabilities: string[];
  metadata: Record<string, unknown> & { type: string; kind: string };
  properties: Record<string, unknown> & { size: number };
  description?: string;
  thumbnail?: { assetId: string; url: string };
  outputIndex?: number;
  embedding?: number[];
  createdAt: string;
  updatedAt: string;
}

export interface ViewOptions {
  /** `originalAssets=true`: `url` serves the original bytes instead of the web rendition. */
  original?: boolean;
  /** `withEmbedding=true` (the row must have been loaded with it). */
  withEmbedding?: boolean;
}

/** Parses the `originalAssets` / `withEmbedding` query strings: only "true" turns them on. */
export function flag(value: string | undefined): boolean {
  return value === 'true';
}

/**
 * Renders rows as API objects. URLs are presigned locally (no storage round
 * trip), so a page of 100 assets costs no I/O beyond its one query.
 */
@Injectable()
export class AssetPresenter {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  views(rows: readonly AssetRow[], options: ViewOptions = {}): Promise<AssetView[]> {
    const now = new Date();
    return Promise.all(rows.map((row) => this.render(row, options, now)));
  }

  view(row: AssetRow, options: ViewOptions = {}): Promise<AssetView> {
    return this.render(row, options, new Date());
  }

  signedUrl(key: string, downloadName?: string): Promise<string> {
    return this.store.signedUrl(key, { expiresInSeconds: LIMITS.signedUrlSeconds, ...(downloadName ? { downloadName } : {}) });
  }

  private async render(row: AssetRow, options: ViewOptions, now: Date): Promise<AssetView> {
    const contentKey = options.original ? row.storageKey : (row.renditionKey ?? row.storageKey);
    const [url, thumbnailUrl] = await Promise.all([
      this.signedUrl(contentKey),
      row.thumbnailKey ? this.signedUrl(row.thumbnailKey) : undefined,
    ]);
    const thumbnail = thumbnailUrl ? { assetId: row.id, url: thumbnailUrl } : undefined;
    const locked = row.lockExpiresAt && row.lockExpiresAt > now ? row.lockExpiresAt : undefined;
    const extra = (row.metadata ?? {}) as Record<string, unknown>;
    return {
      id: row.id,
      url,
      mimeType: row.mimeType,
      kind: row.kind,
      source: sourceOf(row.type),
      status: row.status,
      privacy: row.privacy,
      ownerId: row.projectId,
      authorId: row.authorId,
      tags: row.tags,
      collectionIds: row.collectionIds,
      editCapabilities: editCapabilitiesOf(row.kind, row.type),
      metadata: {
        ...extra,
        type: row.type,
        kind: row.kind,
        ...(row.name !== null ? { name: row.name } : {}),
        ...(row.parentId ? { parentId: row.parentId } : {}),
        ...(row.rootParentId ? { rootParentId: row.rootParentId } : {}),
        ...(row.jobId ? { parentJobId: row.jobId } : {}),
        ...(row.inferenceId ? { inferenceId: row.inferenceId } : {}),
        ...(row.modelId ? { modelId: row.modelId } : {}),
        ...(row.outputIndex !== null ? { outputIndex: row.outputIndex } : {}),
        ...(locked ? { lockExpiresAt: locked.toISOString() } : {}),
        ...(thumbnail ? { thumbnail } : {}),
      },
      properties: row.properties as AssetView['properties'],
      ...(row.description !== null ? { description: row.description } : {}),
      ...(thumbnail ? { thumbnail } : {}),
      ...(row.outputIndex !== null ? { outputIndex: row.outputIndex } : {}),
      ...(options.withEmbedding && row.embedding?.length ? { embedding: row.embedding } : {}),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}
