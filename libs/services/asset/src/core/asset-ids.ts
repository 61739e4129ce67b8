import { prefixedId } from '@genasset/contracts';

/** `asset_<ULID>` (new ids); older upstream ids use other alphabets, so only the shape is checked. */
export const ASSET_ID_PATTERN = /^asset_[0-9A-Za-z]{1,64}$/;

export function newAssetId(): string {
  return prefixedId('asset');
}

export function isAssetId(value: unknown): value is string {
  return typeof value === 'string' && ASSET_ID_PATTERN.test(value);
}

/** Ids of other services' resources (projects, models, inferences, collections, authors): shape only. */
export const FOREIGN_ID = /^[A-Za-z0-9_-]{1,128}$/;
