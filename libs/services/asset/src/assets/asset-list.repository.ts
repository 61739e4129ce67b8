import { Inject, Injectable } from '@nestjs/common';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import type { AssetRow } from '../core/asset.repository';
import { Prisma } from '../generated/prisma/client';

export type SortColumn = 'createdAt' | 'updatedAt';
export type SortDirection = 'asc' | 'desc';

/** A validated list request, in storage terms. */
export interface ListCriteria {
  /** One project's assets (optionally of one privacy), or public assets of every organisation. */
  scope: { kind: 'project'; projectId: string; privacy?: 'private' | 'unlisted' } | { kind: 'public' };
  /** One or more types; several are read as one index range per type, merged. */
  types?: readonly string[];
  inferenceId?: string;
  modelId?: string;
  parentId?: string;
  rootParentId?: string;
  authorId?: string;
  collectionId?: string;
  /** Every tag must be present (public scope only: that is what the GIN index covers). */
  tags?: readonly string[];
  sortBy: SortColumn;
  direction: SortDirection;
  /** Exclusive bounds on the sort column. */
  after?: Date;
  before?: Date;
  /** Keyset position: rows strictly after (sort value, id) in the list order. */
  cursor?: { at: Date; id: string };
  limit: number;
}

const SORT_SQL: Record<SortColumn, Prisma.Sql> = {
  createdAt: Prisma.raw('a.created_at'),
  updatedAt: Prisma.raw('a.updated_at'),
};

/** Every column except the embedding, aliased to the Prisma field names (rows read like `AssetRow`). */
export const COLUMNS = Prisma.raw(`a.id, a.team_id AS "teamId", a.project_id AS "projectId", a.author_id AS "authorId",
  a.type, a.kind, a.mime_type AS "mimeType", a.status, a.privacy, a.name, a.description, a.tags,
  a.collection_ids AS "collectionIds", a.parent_id AS "parentId", a.root_parent_id AS "rootParentId",
  a.inference_id AS "inferenceId", a.model_id AS "modelId", a.job_id AS "jobId", a.output_index AS "outputIndex",
  a.storage_key AS "storageKey", a.rendition_key AS "renditionKey", a.thumbnail_key AS "thumbnailKey",
  a.properties, a.metadata, a.content_version AS "contentVersion", a.lock_id AS "lockId",
  a.lock_expires_at AS "lockExpiresAt", a.lock_author_id AS "lockAuthorId",
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`);

/**
 * The list query: one SQL statement per page, keyset-paginated. Each filter
 * combination has an index whose order is (sort column, id), so PostgreSQL
 * reads `limit` rows of one index range and stops (docs/assets.md, "Indexes").
 */
@Injectable()
export class AssetListRepository {
  constructor(@Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection) {}

  /**
   * Straight on the process's connection pool (the one Prisma's adapter uses),
   * not through `$queryRaw`: this is the hottest read of the service, and
   * Prisma's raw-result mapping cost more CPU than the query itself
   * (bench/assets). Same SQL, same parameters, rows of the same shape.
   */
  async list(criteria: ListCriteria): Promise<AssetRow[]> {
    const query = buildListQuery(criteria);
    const rows = await this.db.query<AssetRow>(query.text, query.values);
    return rows.map(normalise);
  }
}

export function buildListQuery(c: ListCriteria): Prisma.Sql {
  const sort = SORT_SQL[c.sortBy];
  const dir = Prisma.raw(c.direction === 'asc' ? 'ASC' : 'DESC');
  const conditions: Prisma.Sql[] = [];
  if (c.scope.kind === 'public') {
    // A literal, not a parameter: the partial indexes (WHERE privacy = 'public') must be provably usable.
    conditions.push(Prisma.sql`a.privacy = 'public'`);
  } else {
    conditions.push(Prisma.sql`a.project_id = ${c.scope.projectId}`);
    if (c.scope.privacy) conditions.push(Prisma.sql`a.privacy = ${c.scope.privacy}`);
  }
  if (c.inferenceId) conditions.push(Prisma.sql`a.inference_id = ${c.inferenceId}`);
  if (c.modelId) conditions.push(Prisma.sql`a.model_id = ${c.modelId}`);
  if (c.parentId) conditions.push(Prisma.sql`a.parent_id = ${c.parentId}`);
  if (c.rootParentId) conditions.push(Prisma.sql`a.root_parent_id = ${c.rootParentId}`);
  if (c.authorId) conditions.push(Prisma.sql`a.author_id = ${c.authorId}`);
  if (c.collectionId) conditions.push(Prisma.sql`a.collection_ids @> ARRAY[${c.collectionId}]::text[]`);
  if (c.tags?.length) conditions.push(Prisma.sql`a.tags @> ${[...c.tags]}::text[]`);
  if (c.after) conditions.push(Prisma.sql`${sort} > ${c.after.toISOString()}::timestamptz`);
  if (c.before) conditions.push(Prisma.sql`${sort} < ${c.before.toISOString()}::timestamptz`);
  if (c.cursor) {
    const at = c.cursor.at.toISOString();
    // Row comparison: one index condition on (sort column, id), both in index order.
    conditions.push(
      c.direction === 'asc'
        ? Prisma.sql`(${sort}, a.id) > (${at}::timestamptz, ${c.cursor.id})`
        : Prisma.sql`(${sort}, a.id) < (${at}::timestamptz, ${c.cursor.id})`,
    );
  }

  const page = (extra?: Prisma.Sql) =>
    Prisma.sql`SELECT ${COLUMNS} FROM assets.assets a
      WHERE ${Prisma.join(extra ? [...conditions, extra] : conditions, ' AND ')}
      ORDER BY ${sort} ${dir}, a.id ${dir} LIMIT ${c.limit}`;

  const types = c.types ?? [];
  if (types.length <= 1) return page(types.length ? Prisma.sql`a.type = ${types[0]}` : undefined);
  // Several types: `type = ANY(...)` would read every matching row and sort them; one
  // ordered, limited range per type merged (Merge Append) reads at most types × limit rows.
  const outer = Prisma.raw(c.sortBy === 'createdAt' ? '"createdAt"' : '"updatedAt"');
  const branches = types.map((type) => Prisma.sql`(${page(Prisma.sql`a.type = ${type}`)})`);
  return Prisma.sql`SELECT * FROM (${Prisma.join(branches, ' UNION ALL ')}) AS u
    ORDER BY u.${outer} ${dir}, u.id ${dir} LIMIT ${c.limit}`;
}

/** Raw rows come back with driver types; make them look exactly like Prisma's (in place: the rows are fresh). */
export function normalise(row: AssetRow): AssetRow {
  row.createdAt = new Date(row.createdAt);
  row.updatedAt = new Date(row.updatedAt);
  row.lockExpiresAt = row.lockExpiresAt ? new Date(row.lockExpiresAt) : null;
  return row;
}
