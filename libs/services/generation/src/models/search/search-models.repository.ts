import { Inject, Injectable } from '@nestjs/common';
import { countLimit, type FilterCondition, type SearchPaging } from '@genasset/http';
import { DATABASE_CONNECTION, filterConditionSql, matchCountSql, type DatabaseConnection } from '@genasset/persistence';
import { GenerationPrisma } from '../../generation.prisma';
import { Prisma } from '../../generated/prisma/client';
import type { ModelRow } from '../model.view';

/** The filterable attributes of a model and their columns. */
export const MODEL_FILTER_COLUMNS: Record<string, string> = {
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
const ARRAY_ATTRIBUTES = ['tags', 'capabilities', 'collectionIds'];

export interface ModelSearch {
  /** The project searched; undefined: every team's public models. */
  projectId?: string;
  conditions: FilterCondition[];
  /** Full text over `search_text` (GIN), ranked. */
  query?: string;
  sort: { attribute: string; direction: 'asc' | 'desc' }[];
  paging: SearchPaging;
}

/** POST /v1/search/models: one page of ids with their scores and the total (two statements side by side), then the rows. */
@Injectable()
export class SearchModelsRepository {
  constructor(
    @Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection,
    private readonly prisma: GenerationPrisma,
  ) {}

  async run(search: ModelSearch): Promise<{ ordered: ModelRow[]; scores: Map<string, number>; total: number }> {
    const where: Prisma.Sql[] = [
      search.projectId === undefined ? Prisma.sql`m.privacy = 'public'` : Prisma.sql`m.project_id = ${search.projectId}`,
      ...search.conditions.map((c) => filterConditionSql(Prisma, c, MODEL_FILTER_COLUMNS, ARRAY_ATTRIBUTES)),
    ];
    const tsq = search.query !== undefined ? Prisma.sql`websearch_to_tsquery('english', ${search.query})` : undefined;
    if (tsq) where.push(Prisma.sql`m.search_text @@ ${tsq}`);
    const score = tsq ? Prisma.sql`ts_rank_cd(m.search_text, ${tsq}, 32)` : Prisma.sql`0`;
    const order = [
      ...search.sort.map((s) => Prisma.raw(`${MODEL_FILTER_COLUMNS[s.attribute]} ${s.direction === 'asc' ? 'ASC' : 'DESC'}`)),
      ...(tsq ? [Prisma.raw('score DESC')] : []),
      Prisma.raw('m.created_at DESC, m.id DESC'),
    ];
    const conditionsSql = Prisma.join(where, ' AND ');
    const page = Prisma.sql`SELECT m.id, ${score} AS score FROM generation.models m WHERE ${conditionsSql}
      ORDER BY ${Prisma.join(order, ', ')} LIMIT ${search.paging.limit} OFFSET ${search.paging.offset}`;
    const count = matchCountSql(Prisma, 'generation.models', 'm', conditionsSql, countLimit(search.paging));
    const [scored, counted] = await Promise.all([
      this.db.query<{ id: string; score: number | string }>(page.text, page.values),
      this.db.query<{ total: number | string }>(count.text, count.values),
    ]);
    const rows = await this.prisma.model.findMany({ where: { id: { in: scored.map((s) => s.id) } } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      ordered: scored.flatMap((s) => (byId.has(s.id) ? [byId.get(s.id)!] : [])),
      scores: new Map(scored.map((s) => [s.id, Number(s.score)])),
      total: Number(counted[0]?.total ?? 0),
    };
  }
}
