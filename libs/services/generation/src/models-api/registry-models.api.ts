import { Injectable } from '@nestjs/common';
import type { ModelsApi, TagCount, TagPage, TenantRef } from '@genasset/contracts';
import { RegistryModelsRepository } from './registry-models.repository';

const MODEL_ID = /^model_[0-9A-Za-z]{1,64}$/;

/**
 * generation-service's answer to "which of these models exist in this project"
 * (collection-service asks before adding models): the registry's models owned
 * by the tenant's project — the same ownership rule as assets; another team's
 * public model is readable but not the caller's to collect.
 */
@Injectable()
export class RegistryModelsApi implements ModelsApi {
  constructor(private readonly models: RegistryModelsRepository) {}

  async existing(tenant: TenantRef, modelIds: readonly string[]): Promise<string[]> {
    const ids = [...new Set(modelIds.filter((id) => MODEL_ID.test(id)))];
    if (ids.length === 0) return [];
    const found = new Set(await this.models.idsInProject(tenant, ids));
    return ids.filter((id) => found.has(id));
  }

  /** The tags of the project's models with their counts, in byte order after `page.after`. */
  tagCounts(tenant: TenantRef, page: TagPage): Promise<TagCount[]> {
    return this.models.tagCounts(tenant, page);
  }
}
