import { Injectable } from '@nestjs/common';
import type { TagCount, TagPage, TenantRef } from '@genasset/contracts';
import { GenerationPrisma } from '../generation.prisma';

/** The registry's reads for other services (ModelsApi): which models a project owns, and their tags. */
@Injectable()
export class RegistryModelsRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  /** Of `ids`, those owned by the tenant's project. */
  async idsInProject(tenant: TenantRef, ids: readonly string[]): Promise<string[]> {
    const rows = await this.prisma.model.findMany({
      where: { id: { in: [...ids] }, projectId: tenant.projectId, teamId: tenant.teamId },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /**
   * The tags of the project's models, each with the number of models carrying
   * it, in byte order after `page.after`. The project filter uses the
   * (project_id, created_at, id) index; the unnest and grouping run over that
   * project's models only.
   */
  async tagCounts(tenant: TenantRef, page: TagPage): Promise<TagCount[]> {
    const rows = await this.prisma.$queryRaw<
      { tagName: string; itemCount: number; createdAt: Date; updatedAt: Date }[]
    >`
      SELECT t.tag AS "tagName", count(*)::int AS "itemCount",
             min(m.created_at) AS "createdAt", max(m.updated_at) AS "updatedAt"
        FROM generation.models m CROSS JOIN LATERAL unnest(m.tags) AS t(tag)
       WHERE m.project_id = ${tenant.projectId} AND m.team_id = ${tenant.teamId}
         AND (${page.after ?? null}::text IS NULL OR t.tag COLLATE "C" > ${page.after ?? null}::text COLLATE "C")
       GROUP BY t.tag
       ORDER BY t.tag COLLATE "C"
       LIMIT ${page.limit}`;
    return rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}
