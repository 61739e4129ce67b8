import { Injectable } from '@nestjs/common';
import type { ModelsApi, TagCount, TagPage, TenantRef } from '@genasset/contracts';
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

  /**
   * The tags of the project's models, each with the number of models carrying
   * it, in byte order after `page.after`. The project filter uses the
   * (project_id, created_at, id) index; the unnest and grouping run over that
   * project's models only.
   */
  async tagCounts(tenant: TenantRef, page: TagPage): Promise<TagCount[]> {
    const rows = await this.prisma.$queryRaw<{ tagName: string; itemCount: number; createdAt: Date; updatedAt: Date }[]>`
      SELECT t.tag AS "tagName", count(*)::int AS "itemCount",
             min(m.created_at) AS "createdAt", max(m.updated_at) AS "updatedAt"
        FROM generation.models m CROSS JOIN LATERAL unnest(m.tags) AS t(tag)
       WHERE m.project_id = ${tenant.projectId} AND m.team_id = ${tenant.teamId}
         AND (${page.after ?? null}::text IS NULL OR t.tag COLLATE "C" > ${page.after ?? null}::text COLLATE "C")
       GROUP BY t.tag
       ORDER BY t.tag COLLATE "C"
       LIMIT ${page.limit}`;
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() }));
  }
}
