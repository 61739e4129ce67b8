import { Inject, Injectable } from '@nestjs/common';
import type { FilterCondition } from '@genasset/http';
import { DATABASE_CONNECTION, filterConditionSql, matchCountSql, quoteIdent, type DatabaseConnection } from '@genasset/persistence';
import { COLUMNS, normalise } from '../assets/asset-list.repository';
import type { AssetRow } from '../core/asset.repository';
import { IMAGE_EMBEDDING_DIMENSIONS } from '../embeddings/image-embedding';
import { Prisma } from '../generated/prisma/client';
import { sqlLiteral } from './text-to-image/model-embeddings.repository';
import { VectorIndex } from './vector-index';

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
  /**
   * Text-to-image (docs/search.md): the query text's unit vector from the search model `model`,
   * compared with each asset's `model_embedding` of that model; `ratio` (querySemanticRatio) weighs
   * it against the text score. Rows then match the text or have a vector of the model.
   */
  semantic?: { vector: number[]; model: string; ratio: number };
  conditions: readonly FilterCondition[];
  sort: readonly { attribute: 'createdAt' | 'updatedAt'; direction: 'asc' | 'desc' }[];
  offset: number;
  limit: number;
  /** Count the matches up to this many (offset mode's estimatedTotalHits: countLimit in @genasset/http); absent: exactly. */
  countLimit?: number;
}

export type ScoredRow = AssetRow & { score: number };

/**
 * The search statements: the page and the count. Text: `search_text @@
 * websearch_to_tsquery('english', …)` (GIN index), scored by ts_rank_cd
 * normalised to [0, 1) (flag 32: rank/(rank+1)). Similarity: the dot product
 * over `embedding real[]` (stored vectors are unit length, so it is the
 * cosine), clamped at 0 — computed for every embedded row of the scope (the
 * exact scan), or, where the HNSW index exists (VectorIndex), only for the
 * rows the index names nearest plus the text matches (docs/search.md,
 * "Similar images"). Both paths score (the same dot product: in SQL, or by
 * pgvector on the index path) and order alike. Text to image (the search
 * model's `model_embedding`) takes the same two paths, through the model's own
 * index (migration 0007) where it exists ("Text to image"). The count is exact, or stops
 * at `countLimit` (offset mode's estimate).
 */
@Injectable()
export class SearchAssetsRepository {
  constructor(
    @Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection,
    private readonly index: VectorIndex,
  ) {}

  async search(c: SearchCriteria): Promise<{ rows: ScoredRow[]; total: number }> {
    // pgvector computes the search model's dot product where it is installed (`<#>`), on either path.
    const pgvector = this.index.pgvectorSchema;
    const modelOps = pgvector ? { pgvectorSchema: pgvector } : undefined;
    const schema = this.indexSchema(c);
    if (schema && !c.sort.length && c.offset + c.limit <= INDEX_MAX_DEPTH) {
      const { page, count } = buildSearchQueries(c, { vectorSchema: schema }, modelOps);
      const [rows, total] = await Promise.all([this.index.statements().query<ScoredRow>(page.text, page.values), this.count(count)]);
      // The exact scan answers instead when the page reached rows scoring 0 (images pointing away from the
      // query: the exact order lists them newest first, the index by distance), or came back short of what
      // the count says exists (the index scan stopped early): so both paths give the same page.
      const short = rows.length < Math.min(c.limit, total - c.offset);
      if (!short && !rows.some((r) => !(Number(r.score) > 0))) return { rows: rows.map(scored), total };
    }
    const { page, count } = buildSearchQueries(c, undefined, modelOps);
    const [rows, total] = await Promise.all([this.db.query<ScoredRow>(page.text, page.values), this.count(count)]);
    return { rows: rows.map(scored), total };
  }

  /** Where pgvector lives when the HNSW index of this search's candidates (indexedSpace) exists; else undefined (the exact scan). */
  private indexSchema(c: SearchCriteria): string | undefined {
    const space = indexedSpace(c);
    if (space === 'image') return this.index.mode.kind === 'hnsw' ? this.index.mode.schema : undefined;
    if (space === 'model') {
      const mode = this.index.modelMode(c.semantic!.model, c.semantic!.vector.length);
      return mode.kind === 'hnsw' ? mode.schema : undefined;
    }
    return undefined;
  }

  private async count(count: Prisma.Sql): Promise<number> {
    const [row] = await this.db.query<{ total: string | number }>(count.text, count.values);
    return Number(row?.total ?? 0);
  }
}

/** Deeper pages than this take the exact scan: an index scan that far is no cheaper, and pgvector caps how many tuples it visits. */
export const INDEX_MAX_DEPTH = 1000;

const scored = (r: ScoredRow): ScoredRow => ({ ...normalise(r), score: Number(r.score) });

/** The rows that have an embedding: a literal, so the partial indexes on it (migration 0004) apply. */
const HAS_VECTOR = Prisma.raw(`cardinality(a.embedding) = ${IMAGE_EMBEDDING_DIMENSIONS}`);

/**
 * A vector column and its HNSW index: the expression the index is on (`column::vector(dims)`) and
 * its partial index's predicate, written as literals so the planner matches them to the index.
 * Image similarity: `embedding`, migration 0004; the search model: `model_embedding`, one index
 * per model and dimension (migration 0007).
 */
interface VectorSpace {
  column: Prisma.Sql;
  dims: number;
  has: Prisma.Sql;
}
const IMAGE_SPACE: VectorSpace = { column: Prisma.raw('a.embedding'), dims: IMAGE_EMBEDDING_DIMENSIONS, has: HAS_VECTOR };
const modelSpace = (model: string, dims: number): VectorSpace => ({
  column: Prisma.raw('a.model_embedding'),
  dims,
  // The model's name comes from the operator's file (quoted all the same): a literal, as the index's predicate is.
  has: Prisma.raw(`(a.model_embedding_model = ${sqlLiteral(model)} AND cardinality(a.model_embedding) = ${dims})`),
});

/**
 * Which vectors an index path takes its candidates from: the image embedding (an image search), the
 * search model's (a query embedded by it, without images), or none. A query embedded by the model
 * and images together take the exact scan: a row can rank on the sum of both similarities without
 * being among the nearest by either.
 */
export function indexedSpace(c: SearchCriteria): 'image' | 'model' | undefined {
  const semantic = c.semantic && c.text !== undefined;
  if (semantic) return c.vector ? undefined : 'model';
  return c.vector ? 'image' : undefined;
}

/**
 * `index` (where pgvector lives, given when the HNSW index of `indexedSpace(c)` exists): the index
 * path — candidates are the offset + limit rows nearest by that index's cosine distance (under the
 * scope and filter), plus every text match, then scored (the same formulas as the exact scan) and
 * ordered as the exact scan does. It stays exact on the candidates: a row matching only by
 * similarity scores ratio × similarity, so it can rank in the top n only when fewer than n rows are
 * more similar, i.e. when it is among the n nearest.
 */
export function buildSearchQueries(
  c: SearchCriteria,
  index?: { vectorSchema: string },
  /** Where pgvector lives, for the search model's dot product (`<#>`: ~8× cheaper per row than the SQL sum); absent: the SQL sum. */
  modelOps?: { pgvectorSchema: string },
): { page: Prisma.Sql; count: Prisma.Sql } {
  const scope: Prisma.Sql[] = [
    // A literal, not a parameter, in the public scope: the partial indexes on privacy = 'public' stay usable.
    c.scope.kind === 'public' ? Prisma.sql`a.privacy = 'public'` : Prisma.sql`a.project_id = ${c.scope.projectId}`,
    ...c.conditions.map((condition) => filterConditionSql(Prisma, condition, ASSET_FILTER_COLUMNS, ASSET_FILTER_SPEC.arrays)),
  ];
  const where = [...scope];
  const tsq = c.text !== undefined ? Prisma.sql`websearch_to_tsquery('english', ${c.text})` : undefined;
  const rank = tsq ? Prisma.sql`ts_rank_cd(a.search_text, ${tsq}, 32)` : Prisma.sql`0`;
  // With the search model (text-to-image), the query's score is (1 - q)·text + q·cosine(model_embedding, query vector),
  // and a row matches the words or has a vector of the model; without it, the text alone.
  const semantic = tsq && c.semantic ? c.semantic : undefined;
  const hasModelVector = semantic ? Prisma.sql`(a.model_embedding_model = ${semantic.model} AND a.model_embedding IS NOT NULL)` : undefined;
  // The vectors of one model have one length (its dimension, known at run time: no typmod needed for the cast).
  const ops = modelOps ? Prisma.raw(quoteIdent(modelOps.pgvectorSchema)) : undefined;
  const modelDot = !semantic
    ? undefined
    : ops
      ? Prisma.sql`-(a.model_embedding::${ops}.vector OPERATOR(${ops}.<#>) ${semantic.vector}::real[]::${ops}.vector)`
      : Prisma.sql`(SELECT sum(x * y) FROM unnest(a.model_embedding, ${semantic.vector}::real[]) AS m(x, y))`;
  const modelScore = semantic ? Prisma.sql`CASE WHEN ${hasModelVector!} THEN greatest(0, ${modelDot!}) ELSE 0 END` : undefined;
  const textScore = !semantic
    ? rank
    : semantic.ratio >= 1
      ? modelScore!
      : Prisma.sql`(${1 - semantic.ratio}::float8 * ${rank} + ${semantic.ratio}::float8 * ${modelScore!})`;
  const textMatch = tsq ? (semantic ? Prisma.sql`(a.search_text @@ ${tsq} OR ${hasModelVector!})` : Prisma.sql`a.search_text @@ ${tsq}`) : undefined;
  const space = index ? indexedSpace(c) : undefined;
  const schema = space ? Prisma.raw(quoteIdent(index!.vectorSchema)) : undefined;
  const asVector = (value: Prisma.Sql, dims = IMAGE_EMBEDDING_DIMENSIONS) => Prisma.sql`${value}::${schema!}.vector(${Prisma.raw(String(dims))})`;
  const query = c.vector ? Prisma.sql`${c.vector}::real[]` : undefined;
  // The dot product (stored vectors are unit length: the cosine), clamped at 0. The exact scan sums it in SQL; the
  // index path has pgvector compute it (`<#>`: the negated inner product, in C: ~8x faster per row on PGlite).
  const vectorScore = !query
    ? Prisma.sql`0`
    : space !== 'image'
      ? Prisma.sql`greatest(0, (SELECT sum(x * y) FROM unnest(a.embedding, ${query}) AS v(x, y)))`
      : Prisma.sql`CASE WHEN ${HAS_VECTOR} THEN greatest(0, -(${asVector(Prisma.sql`a.embedding`)} OPERATOR(${schema!}.<#>) ${asVector(query)})) ELSE 0 END`;
  // Hybrid: a row matches the text, or (with an image) has an embedding to compare; each side scores 0 where it does not apply.
  if (textMatch && c.vector) where.push(Prisma.sql`(${textMatch} OR ${HAS_VECTOR})`);
  else if (textMatch) where.push(textMatch);
  else if (c.vector) where.push(HAS_VECTOR);

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
  const count = matchCountSql(Prisma, 'assets.assets', 'a', conditions, c.countLimit);
  const tail = Prisma.sql`ORDER BY ${Prisma.join(order, ', ')} LIMIT ${c.limit} OFFSET ${c.offset}`;
  if (!space) return { page: Prisma.sql`SELECT ${COLUMNS}, ${score} AS score FROM assets.assets a WHERE ${conditions} ${tail}`, count };

  // The candidates: the nearest rows by the index (the same expression as the index's, directly in ORDER BY with a
  // LIMIT, so the planner reads the index for it), plus every text match.
  const [vectors, target] = space === 'image' ? [IMAGE_SPACE, c.vector!] : [modelSpace(semantic!.model, semantic!.vector.length), semantic!.vector];
  const distance = Prisma.sql`${asVector(vectors.column, vectors.dims)} OPERATOR(${schema!}.<=>) ${asVector(Prisma.sql`${target}::real[]`, vectors.dims)}`;
  const nearest = Prisma.sql`(SELECT a.id FROM assets.assets a WHERE ${Prisma.join([...scope, vectors.has], ' AND ')}
    ORDER BY ${distance} LIMIT ${c.offset + c.limit})`;
  const candidates = tsq
    ? Prisma.sql`${nearest} UNION (SELECT a.id FROM assets.assets a WHERE ${Prisma.join([...scope, Prisma.sql`a.search_text @@ ${tsq}`], ' AND ')})`
    : nearest;
  return {
    page: Prisma.sql`SELECT ${COLUMNS}, ${score} AS score FROM assets.assets a WHERE a.id IN (${candidates}) ${tail}`,
    count,
  };
}
