import { Injectable } from '@nestjs/common';
import type { ModelsApi, TenantRef } from '@genasset/contracts';

/**
 * generation-service's answer to "which of these models exist in this project".
 * The model registry (models, training, `/v1/models*`) arrives with the models
 * issue; until then no model exists anywhere, so the honest answer is none.
 * Replace the body with a query on the registry's table then — the contract
 * (ids missing or of another project are simply absent) stays the same.
 */
@Injectable()
export class RegistryModelsApi implements ModelsApi {
  existing(_tenant: TenantRef, _modelIds: readonly string[]): Promise<string[]> {
    return Promise.resolve([]);
  }
}
