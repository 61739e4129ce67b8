import { Inject, Injectable } from '@nestjs/common';
import { MODELS_API, type ModelsApi, type TagCount } from '@genasset/contracts';
import { pageToken } from '@genasset/persistence';
import { AssetPrisma } from '../asset.prisma';
import type { ProjectScope } from '../core/tenant-scope';

export const DEFAULT_TAG_PAGE = 50;

/**
 * `GET /v1/tags`: every tag in use in a project with the number of items
 * carrying it. Tags live on assets (this service's schema) and on models
 * (generation-service's registry), so the route fans out: its own query and
 * ModelsApi.tagCounts, each the first `pageSize + 1` tags after the cursor in
 * byte order, merged by name with their counts summed. The merged first
 * `pageSize + 1` are exact (a tag among them is within the first `pageSize + 1`
 * of each side carrying it), so pages are keyset pages on the tag name.
 * Chosen over a tag read model fed by model facts: nothing to keep in step,
 * and a project's tags are few (docs/assets.md, "Tags in use").
 */
@Injectable()
export class TagListService {
  constructor(
    private readonly prisma: AssetPrisma,
    @Inject(MODELS_API) private readonly models: ModelsApi,
  ) {}

  async list(scope: ProjectScope, pageSize = DEFAULT_TAG_PAGE, token?: string) {
    const after = token === undefined ? undefined : decodeTagToken(token);
    const limit = pageSize + 1;
    const tenant = { teamId: scope.teamId, projectId: scope.projectId };
    const [assetTags, modelTags] = await Promise.all([
      this.assetTagCounts(scope, after, limit),
      this.models.tagCounts(tenant, { after, limit }),
    ]);
    const merged = mergeTagCounts(assetTags, modelTags);
    const page = merged.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      tags: page.map((t) => ({ ...t, ownerId: scope.projectId })),
      ...(merged.length > pageSize && last ? { nextPaginationToken: encodeTagToken(last.tagName) } : {}),
    };
  }

  private async assetTagCounts(scope: ProjectScope, after: string | undefined, limit: number): Promise<TagCount[]> {
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

/** Byte order of the UTF-8 names: the order of PostgreSQL's "C" collation both sides sort by. */
const byName = (a: TagCount, b: TagCount) => Buffer.compare(Buffer.from(a.tagName), Buffer.from(b.tagName));

export function mergeTagCounts(...sides: TagCount[][]): TagCount[] {
  const byTag = new Map<string, TagCount>();
  for (const tag of sides.flat()) {
    const seen = byTag.get(tag.tagName);
    byTag.set(
      tag.tagName,
      seen
        ? {
            tagName: tag.tagName,
            itemCount: seen.itemCount + tag.itemCount,
            createdAt: seen.createdAt < tag.createdAt ? seen.createdAt : tag.createdAt,
            updatedAt: seen.updatedAt > tag.updatedAt ? seen.updatedAt : tag.updatedAt,
          }
        : tag,
    );
  }
  return [...byTag.values()].sort(byName);
}

function encodeTagToken(tagName: string): string {
  return pageToken.encode({ a: tagName });
}

function decodeTagToken(token: string): string {
  return pageToken.decode(token, (value) => {
    const { a } = (value ?? {}) as { a?: unknown };
    return typeof a === 'string' && a.length > 0 && !a.includes('\u0000') ? a : undefined;
  });
}
