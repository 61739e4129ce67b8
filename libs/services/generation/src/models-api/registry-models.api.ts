import { Injectable } from '@nestjs/common';
import type { ModelsApi, TenantRef } from '@genasset/contracts';
import { GenerationPrisma } from '../generation.prisma';

const MODEL_ID = /^model_[0-9A-Za-z]{1,64}$/;

/**
 * generation-service's answer to "which of these models exist in this project"
 * (collection-service asks before adding models): the registry's models owned
 * by the tenant's project — the same ownership rule as assets; another team's
 * public model is readable but not the caller's to collect.
 */
@Injectable()
export class RegistryModelsApi implements ModelsApi {
  constructor(private readonly prisma: GenerationPrisma) {}

  async existing(tenant: TenantRef, modelIds: readonly string[]): Promise<string[]> {
    const ids = [...new Set(modelIds.filter((id) => MODEL_ID.test(id)))];
    if (ids.length === 0) return [];
    const rows = await this.prisma.model.findMany({
      where: { id: { in: ids }, projectId: tenant.projectId, teamId: tenant.teamId },
      select: { id: true },
    });
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => found.has(id));
  }
}
