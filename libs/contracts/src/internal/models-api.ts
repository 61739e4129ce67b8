import type { TenantRef } from './internal-api';

export const MODELS_API = Symbol.for('genasset.internal.models-api');

/** One tag of a project's items and how many carry it (`GET /v1/tags` sums the owners' answers). */
export interface TagCount {
  tagName: string;
  itemCount: number;
  /** ISO 8601: the creation of the oldest item carrying the tag. */
  createdAt: string;
  /** ISO 8601: the latest update of an item carrying the tag. */
  updatedAt: string;
}

/** A page of tag counts: tags after `after` (byte order, as PostgreSQL's "C" collation), at most `limit`. */
export interface TagPage {
  after?: string;
  limit: number;
}

/** Owned by generation-service (the model registry): questions other services need answered now. */
export interface ModelsApi {
  /** Which of `modelIds` exist in the tenant's project (missing or foreign ids are simply absent). */
  existing(tenant: TenantRef, modelIds: readonly string[]): Promise<string[]>;
  /** The tags of the project's models with their counts, ordered by name (asset-service's `GET /v1/tags`). */
  tagCounts(tenant: TenantRef, page: TagPage): Promise<TagCount[]>;
}
