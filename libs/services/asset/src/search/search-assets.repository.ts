import { Inject, Injectable } from '@nestjs/common';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { COLUMNS, normalise } from '../assets/asset-list.repository';
import type { AssetRow } from '../core/asset-repository';
import { IMAGE_EMBEDDING_DIMENSIONS } from '../embeddings/image-embedding';
import { Prisma } from '../generated/prisma/client';
import type { FilterCondition } from '@genasset/http';
import { filterConditionSql } from '@genasset/persistence';

/** Filterable attributes of an asset and their columns. */
export const ASSET_FILTER_COLUMNS: Record<string, string> = {
  id: 'a.id',
  type: 'a.type',
  kind: 'a.kind',
  mimeType: 'a.mime_type',
  privacy: 'a.privacy',
  authorId: 'a.author_id',
  modelId: 'a.model_id',
  parentId: 'a.parent_id',
  tags: 'a.tags',
  collectionIds: 'a.collection_ids',
  createdAt: 'a.created_at',
  updatedAt: 'a.updated_at',
};
export const ASSET_FILTER_SPEC = {
  scalar: ['id', 'type', 'kind', 'mimeType', 'privacy', 'authorId', 'modelId', 'parentId'],
  arrays: ['tags', 'collectionIds'],
  dates: ['createdAt', 'updatedAt'],
} as const;

/** A validated search, in storage terms. */
export interface SearchCriteria {
  scope: { kind: 'project'; projectId: string } | { kind: 'public' };
  /** Full-text query (websearch syntax: words, "phrases", -excluded, or). */
  text?: string;
  /** Unit-length query vector (similar images); rows without an embedding never match it. */
  vector?: number[];
  /** Weight of the vector score in the hybrid score when both are given. */
  ratio: number;
  conditions: readonly FilterCondition[];
  sort: readonly { attribute: 'createdAt' | 'updatedAt'; direction: 'asc' | 'desc' }[];
  offset: number;
  limit: number;
}

export type ScoredRow = AssetRow & { score: number };

/**
 * The search statement: one SQL query for the page and one for the count.
 * Text: `search_text @@ websearch_to_tsquery('english', …)` (GIN index), scored
 * by ts_rank_cd normalised to [0, 1) (flag 32: rank/(rank+1)). Similarity: an
 * exact scan of the dot product over `embedding real[]` (stored vectors are
 * unit length, so it is the cosine), clamped at 0. No vector index: the
 * database has no pgvector here (docs/search.md, "Similarity").
 */
@Injectable()
export class SearchAssetsRepository {
  constructor(@Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection) {}

  async search(c: SearchCriteria): Promise<{ rows: ScoredRow[]; total: number }> {
    const { page, count } = buildSearchQueries(c);
    const [rows, counted] = await Promise.all([
      this.db.query<ScoredRow>(page.text, page.values),
      this.db.query<{ total: string | number }>(count.text, count.values),
    ]);
    return { rows: rows.map((r) => ({ ...normalise(r), score: Number(r.score) })), total: Number(counted[0]?.total ?? 0) };
  }
}

export function buildSearchQueries(c: SearchCriteria): { page: Prisma.Sql; count: Prisma.Sql } {
  const where: Prisma.Sql[] = [
    // A literal, not a parameter, in the public scope: the partial indexes on privacy = 'public' stay usable.
    c.scope.kind === 'public' ? Prisma.sql`a.privacy = 'public'` : Prisma.sql`a.project_id = ${c.scope.projectId}`,
    ...c.conditions.map((condition) => filterConditionSql(Prisma, condition, ASSET_FILTER_COLUMNS, ASSET_FILTER_SPEC.arrays)),
  ];
  const tsq = c.text !== undefined ? Prisma.sql`websearch_to_tsquery('english', ${c.text})` : undefined;
  const textScore = tsq ? Prisma.sql`ts_rank_cd(a.search_text, ${tsq}, 32)` : Prisma.sql`0`;
  const vectorScore = c.vector
    ? Prisma.sql`greatest(0, (SELECT sum(x * y) FROM unnest(a.embedding, ${c.vector}::real[]) AS v(x, y)))`
    : Prisma.sql`0`;
  const hasVector = Prisma.sql`cardinality(a.embedding) = ${IMAGE_EMBEDDING_DIMENSIONS}`;
  // Hybrid: a row matches the text, or (with an image) has an embedding to compare; each side scores 0 where it does not apply.
  if (tsq && c.vector) where.push(Prisma.sql`(a.search_text @@ ${tsq} OR ${hasVector})`);
  else if (tsq) where.push(Prisma.sql`a.search_text @@ ${tsq}`);
  else if (c.vector) where.push(hasVector);

  const ratio = tsq && c.vector ? c.ratio : c.vector ? 1 : 0;
  const score =
    ratio === 0 ? textScore : ratio === 1 ? vectorScore : Prisma.sql`(${1 - ratio}::float8 * ${textScore} + ${ratio}::float8 * ${vectorScore})`;
  const order = [
    ...c.sort.map((s) => Prisma.raw(`${ASSET_FILTER_COLUMNS[s.attribute]} ${s.direction === 'asc' ? 'ASC' : 'DESC'}`)),
    ...(tsq || c.vector ? [Prisma.raw('score DESC')] : []),
    Prisma.raw('a.created_at DESC'),
    Prisma.raw('a.id DESC'),
  ];
  const conditions = Prisma.join(where, ' AND ');
  return {
    page: Prisma.sql`SELECT ${COLUMNS}, ${score} AS score FROM assets.assets a WHERE ${conditions}
      ORDER BY ${Prisma.join(order, ', ')} LIMIT ${c.limit} OFFSET ${c.offset}`,
    count: Prisma.sql`SELECT count(*) AS total FROM assets.assets a WHERE ${conditions}`,
  };
}
