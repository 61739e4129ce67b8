import { Inject, Injectable } from '@nestjs/common';
import type { TenantRef } from '@genasset/contracts';
import { ApiError, countLimit, pageFields, parseFilter, searchPaging, searchSort, type FieldError, type SearchBody, type SearchPageFields } from '@genasset/http';
import { DATABASE_CONNECTION, filterConditionSql, matchCountSql, type DatabaseConnection } from '@genasset/persistence';
import { GenerationPrisma } from '../../generation.prisma';
import { Prisma } from '../../generated/prisma/client';
import { MODEL_LIMITS } from '../model-types';
import { ModelsService } from '../models.service';

const MODEL_FILTER_COLUMNS: Record<string, string> = {
  id: 'm.id',
  type: 'm.type',
  privacy: 'm.privacy',
  status: 'm.status',
  authorId: 'm.author_id',
  tags: 'm.tags',
  capabilities: 'm.capabilities',
  collectionIds: 'm.collection_ids',
  createdAt: 'm.created_at',
  updatedAt: 'm.updated_at',
};
const MODEL_FILTER_SPEC = {
  scalar: ['id', 'type', 'privacy', 'status', 'authorId'],
  arrays: ['tags', 'capabilities', 'collectionIds'],
  dates: ['createdAt', 'updatedAt'],
};
/** Refused with public: true, as for assets: they would probe another tenant's private data. */
const PUBLIC_SCOPE_REFUSED = ['authorId', 'collectionIds'];

/**
 * POST /v1/search/models: full text over name, tags, capabilities and
 * descriptions (generated `search_text`, GIN), the filter subset and paging of
 * asset search, over the project's models or every team's public ones. Image
 * similarity is refused: models have no embedding of their own (their example
 * images live in asset-service; docs/search.md, "What is not built").
 */
@Injectable()
export class SearchModelsService {
  constructor(
    @Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection,
    private readonly prisma: GenerationPrisma,
    private readonly models: ModelsService,
  ) {}

  async execute(tenant: TenantRef, body: SearchBody): Promise<{ hits: Record<string, unknown>[] } & SearchPageFields> {
    const errors: FieldError[] = [];
    const fail = (error: FieldError) => errors.push(error);
    const query = body.query?.trim() ? body.query.trim() : undefined;
    for (const field of ['image', 'images'] as const) {
      if (body[field] !== undefined) {
        fail({ field, messages: [`${field}: similar-image search is not available for models (no model embeddings; docs/search.md): use query and filter`] });
      }
    }
    if (query === undefined && body.filter === undefined && !errors.length) {
      fail({ field: 'query', messages: ['at least one of query, filter, image or images must have a value'] });
    }
    const paging = searchPaging(body, fail);
    const sort = searchSort(body.sortBy, ['createdAt', 'updatedAt'], fail);
    if (errors.length) throw ApiError.validation(errors);
    const conditions = body.filter !== undefined ? parseFilter(body.filter, MODEL_FILTER_SPEC) : [];
    const publicScope = body.public === true;
    const refused = publicScope ? conditions.find((c) => PUBLIC_SCOPE_REFUSED.includes(c.attribute)) : undefined;
    if (refused) {
      throw ApiError.validation([{ field: 'filter', messages: [`filter: ${refused.attribute} is not available with public: true (every team's public models)`] }]);
    }

    const where: Prisma.Sql[] = [
      publicScope ? Prisma.sql`m.privacy = 'public'` : Prisma.sql`m.project_id = ${tenant.projectId}`,
      ...conditions.map((c) => filterConditionSql(Prisma, c, MODEL_FILTER_COLUMNS, MODEL_FILTER_SPEC.arrays)),
    ];
    const tsq = query !== undefined ? Prisma.sql`websearch_to_tsquery('english', ${query})` : undefined;
    if (tsq) where.push(Prisma.sql`m.search_text @@ ${tsq}`);
    const score = tsq ? Prisma.sql`ts_rank_cd(m.search_text, ${tsq}, 32)` : Prisma.sql`0`;
    const order = [
      ...sort.map((s) => Prisma.raw(`${MODEL_FILTER_COLUMNS[s.attribute]} ${s.direction === 'asc' ? 'ASC' : 'DESC'}`)),
      ...(tsq ? [Prisma.raw('score DESC')] : []),
      Prisma.raw('m.created_at DESC, m.id DESC'),
    ];
    const conditionsSql = Prisma.join(where, ' AND ');
    const page = Prisma.sql`SELECT m.id, ${score} AS score FROM generation.models m WHERE ${conditionsSql}
      ORDER BY ${Prisma.join(order, ', ')} LIMIT ${paging.limit} OFFSET ${paging.offset}`;
    const count = matchCountSql(Prisma, 'generation.models', 'm', conditionsSql, countLimit(paging));
    const [scored, counted] = await Promise.all([
      this.db.query<{ id: string; score: number | string }>(page.text, page.values),
      this.db.query<{ total: number | string }>(count.text, count.values),
    ]);
    const rows = await this.prisma.model.findMany({ where: { id: { in: scored.map((s) => s.id) } } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ordered = scored.flatMap((s) => (byId.has(s.id) ? [byId.get(s.id)!] : []));
    const views = await this.models.views(ordered, MODEL_LIMITS.listTrainingImages);
    const scores = new Map(scored.map((s) => [s.id, Number(s.score)]));
    // Upstream's search hit requires name and shortDescription, which a model may not have yet: '' then.
    const hits = views.map((view, i) => ({
      ...view,
      name: ordered[i].name ?? '',
      shortDescription: ordered[i].shortDescription ?? '',
      teamId: ordered[i].teamId,
      concepts: [],
      score: scores.get(ordered[i].id) ?? 0,
    }));
    return { hits, ...pageFields(paging, Number(counted[0]?.total ?? 0)) };
  }
}
