import type { TenantRef } from './internal-api';

export const MODELS_API = Symbol.for('genasset.internal.models-api');

/** Owned by generation-service (the model registry): questions other services need answered now. */
export interface ModelsApi {
  /** Which of `modelIds` exist in the tenant's project (missing or foreign ids are simply absent). */
  existing(tenant: TenantRef, modelIds: readonly string[]): Promise<string[]>;
}
