import type { TenantRef } from './internal-api';

export const ASSETS_API = Symbol.for('genasset.internal.assets-api');

/** Owned by asset-service: questions other services need answered now. */
export interface AssetsApi {
  /** Which of `assetIds` exist in the tenant's project (missing or foreign ids are simply absent). */
  existing(tenant: TenantRef, assetIds: readonly string[]): Promise<string[]>;
}
