import type { TenantRef } from './internal-api';

export const ASSETS_API = Symbol.for('genasset.internal.assets-api');

/** Owned by asset-service: questions other services need answered now. */
export interface AssetsApi {
  /** Which of `assetIds` exist in the tenant's project (missing or foreign ids are simply absent). */
  existing(tenant: TenantRef, assetIds: readonly string[]): Promise<string[]>;
  /**
   * Where the original bytes of `assetIds` are (claim check: executors read
   * them from object storage), with what asset-service knows of them, so one
   * lookup both checks ownership and prices a generation by the input's size.
   * Missing or foreign ids are simply absent.
   */
  objects(tenant: TenantRef, assetIds: readonly string[]): Promise<AssetObject[]>;
  /**
   * Stores an image as an `uploaded` asset of the tenant's project, exactly as
   * `POST /v1/assets` would (bytes sniffed, web rendition, `asset.created`);
   * `data` is a data URL or base64. The author is `tenant.authorId`.
   */
  uploadImage(tenant: TenantRef, image: { data: string; name?: string }): Promise<{ assetId: string }>;
  /**
   * The assets of the tenant's project as `GET /v1/assets/{assetId}` shows
   * them to that project (a model's example assets and description page), in
   * the given order. Missing or foreign ids are simply absent.
   */
  views(tenant: TenantRef, assetIds: readonly string[]): Promise<Record<string, unknown>[]>;
  /**
   * The image embedding of each image asset of the tenant's project (stored
   * ones, else computed from the original and stored, as `withEmbedding=true`
   * does). Assets without one (other kinds, unreadable bytes), missing or
   * foreign ids are absent.
   */
  embeddings(tenant: TenantRef, assetIds: readonly string[]): Promise<AssetEmbedding[]>;
  /**
   * Copies assets of the tenant's project into `targetProjectId` (the caller
   * has checked it is a project of the same team the credentials reach), as
   * `POST /v1/assets/{assetId}/copy` does: new ids, the bytes copied. Missing
   * or foreign ids are absent from the answer.
   */
  copy(tenant: TenantRef, assetIds: readonly string[], targetProjectId: string): Promise<AssetCopy[]>;
}

export interface AssetEmbedding {
  assetId: string;
  embedding: number[];
}

/** One asset copied by {@link AssetsApi.copy}. */
export interface AssetCopy {
  assetId: string;
  copyId: string;
}

/** An asset's original object in storage, as {@link AssetsApi.objects} answers it. */
export interface AssetObject {
  assetId: string;
  /** Object key of the original bytes. */
  key: string;
  mimeType: string;
  /** image, video, audio, 3d, json, document, image-hdr */
  kind: string;
  /** The asset type (uploaded, canvas, detection, …). */
  type: string;
  /** Pixel size read from the bytes when the asset was stored; absent when unknown (non-image kinds). */
  width?: number;
  height?: number;
}
