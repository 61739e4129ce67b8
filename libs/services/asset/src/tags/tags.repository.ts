import { Injectable } from '@nestjs/common';
import type { TagCount } from '@genasset/contracts';
import { AssetPrisma } from '../asset.prisma';
import type { ProjectScope } from '../core/tenant-scope';

/** Tags in use on the project's assets. */
@Injectable()
export class TagsRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  /** The first `limit` tags after `after` in byte order, with how many assets carry each. */
  async counts(scope: Pick<ProjectScope, 'teamId' | 'projectId'>, after: string | undefined, limit: number): Promise<TagCount[]> {
    const query = assetTagCountsQuery(scope, after, limit);
    const rows = await this.prisma.$queryRawUnsafe<{ tagName: string; itemCount: number; createdAt: Date; updatedAt: Date }[]>(
      query.text,
      ...query.values,
    );
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() }));
  }
}

/**
 * The asset side of a tag page, as SQL text and values (test/list-indexes.int-spec.ts
 * checks its plan): the project filter enters through a (project_id, …) index,
 * so unnest and grouping see that project's rows only.
 */
export function assetTagCountsQuery(
  scope: Pick<ProjectScope, 'teamId' | 'projectId'>,
  after: string | undefined,
  limit: number,
): { text: string; values: unknown[] } {
  return {
    text: `SELECT t.tag AS "tagName", count(*)::int AS "itemCount",
                  min(a.created_at) AS "createdAt", max(a.updated_at) AS "updatedAt"
             FROM assets.assets a CROSS JOIN LATERAL unnest(a.tags) AS t(tag)
            WHERE a.project_id = $1 AND a.team_id = $2
              AND ($3::text IS NULL OR t.tag COLLATE "C" > $3::text COLLATE "C")
            GROUP BY t.tag
            ORDER BY t.tag COLLATE "C"
            LIMIT $4`,
    values: [scope.projectId, scope.teamId, after ?? null, limit],
  };
}
