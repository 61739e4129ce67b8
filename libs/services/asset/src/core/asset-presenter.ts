import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { conformMetadata } from './asset-metadata';
import type { AssetRow } from './asset.repository';
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
  /** The owner's collections holding the asset: shown to the owning project only, [] to anyone else. */
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
  /**
   * The project of the caller; null for public access and keys without a
   * project. Collections are private to their project: a caller outside the
   * asset's project sees `collectionIds: []` (the field is required upstream).
   */
  viewer: string | null;
  /** `originalAssets=true`: `url` serves the original bytes instead of the web rendition. */
  original?: boolean;
  /** `withEmbedding=true` (the row must have been loaded with it). */
  withEmbedding?: boolean;
}

/** The object `url` serves: the original with originalAssets=true, else the web rendition when there is one. */
function contentKey(row: AssetRow, options: ViewOptions): string {
  return options.original ? row.storageKey : (row.renditionKey ?? row.storageKey);
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

  /**
   * Signs every URL of the page first, then builds the views synchronously:
   * one promise per URL instead of an async render per row (lists are the
   * hottest path of the service; see bench/assets).
   */
  async views(rows: readonly AssetRow[], options: ViewOptions): Promise<AssetView[]> {
    const now = new Date();
    const urls = await Promise.all(rows.map((row) => this.signedUrl(contentKey(row, options))));
    const thumbnails = rows.some((row) => row.thumbnailKey)
      ? await Promise.all(rows.map((row) => (row.thumbnailKey ? this.signedUrl(row.thumbnailKey) : undefined)))
      : [];
    return rows.map((row, i) => this.render(row, options, now, urls[i], thumbnails[i]));
  }

  async view(row: AssetRow, options: ViewOptions): Promise<AssetView> {
    const [url, thumbnailUrl] = await Promise.all([
      this.signedUrl(contentKey(row, options)),
      row.thumbnailKey ? this.signedUrl(row.thumbnailKey) : undefined,
    ]);
    return this.render(row, options, new Date(), url, thumbnailUrl);
  }

  signedUrl(key: string, downloadName?: string): Promise<string> {
    return this.store.signedUrl(key, { expiresInSeconds: LIMITS.signedUrlSeconds, ...(downloadName ? { downloadName } : {}) });
  }

  // Plain assignments rather than conditional spreads: the same keys in the same
  // order, without a temporary object per optional field (a page renders 100).
  private render(row: AssetRow, options: ViewOptions, now: Date, url: string, thumbnailUrl: string | undefined): AssetView {
    const thumbnail = thumbnailUrl ? { assetId: row.id, url: thumbnailUrl } : undefined;
    const locked = row.lockExpiresAt && row.lockExpiresAt > now ? row.lockExpiresAt : undefined;
    // The stored metadata in upstream's types (an engine's numeric seed as a string…): asset-metadata.ts.
    const metadata = conformMetadata((row.metadata ?? {}) as Record<string, unknown>) as AssetView['metadata'];
    metadata.type = row.type;
    metadata.kind = row.kind;
    if (row.name !== null) metadata.name = row.name;
    if (row.parentId) metadata.parentId = row.parentId;
    if (row.rootParentId) metadata.rootParentId = row.rootParentId;
    if (row.jobId) metadata.parentJobId = row.jobId;
    if (row.inferenceId) metadata.inferenceId = row.inferenceId;
    if (row.modelId) metadata.modelId = row.modelId;
    if (row.outputIndex !== null) metadata.outputIndex = row.outputIndex;
    if (locked) metadata.lockExpiresAt = locked.toISOString();
    if (thumbnail) metadata.thumbnail = thumbnail;
    const view: AssetView = {
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
      collectionIds: options.viewer === row.projectId ? row.collectionIds : [],
      editCapabilities: editCapabilitiesOf(row.kind, row.type),
      metadata,
      properties: row.properties as AssetView['properties'],
    } as AssetView;
    if (row.description !== null) view.description = row.description;
    if (thumbnail) view.thumbnail = thumbnail;
    if (row.outputIndex !== null) view.outputIndex = row.outputIndex;
    if (options.withEmbedding && row.embedding?.length) view.embedding = row.embedding;
    view.createdAt = row.createdAt.toISOString();
    view.updatedAt = row.updatedAt.toISOString();
    return view;
  }
}
