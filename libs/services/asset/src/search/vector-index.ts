import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ReadinessRegistry } from '@genasset/http';
import { DATABASE_CONNECTION, type DatabaseConnection, type StatementRunner } from '@genasset/persistence';
import { sqlLiteral } from './text-to-image/model-embeddings.repository';

/** The index migration 0004 creates where the database has pgvector. */
export const VECTOR_INDEX_NAME = 'assets_embedding_hnsw_idx';
/** pgvector's HNSW indexes take vectors of at most this many dimensions. */
export const MAX_INDEXED_DIMENSIONS = 2000;

/**
 * The name of the search model's HNSW index for `model` and its dimension, as migration 0007's
 * `assets.ensure_model_embedding_index(model, dims)` names it (the dimension and the first 12 hex
 * digits of the model name's md5).
 */
export function modelIndexName(model: string, dims: number): string {
  return `assets_model_embedding_${dims}_${createHash('md5').update(model, 'utf8').digest('hex').slice(0, 12)}_hnsw`;
}

/** Iterative index scans (strict order), which keep a filtered nearest-neighbour query complete, came in pgvector 0.8.0. */
const MIN_MINOR = 8;

/** How image similarity is answered: through the HNSW index, or by the exact scan (and why). */
export type VectorSearchMode = { kind: 'hnsw'; schema: string; version: string } | { kind: 'exact'; reason: string };

type CatalogRow = {
  available: boolean;
  schema: string | null;
  version: string | null;
  indexed: boolean;
  /** The search model's HNSW indexes (migration 0007), by name. */
  modelIndexes?: string[] | null;
};

/** How the search model's similarity is answered (text to image): through its HNSW index, or by the exact scan (and why). */
export type ModelSearchMode = { kind: 'hnsw'; schema: string; dims: number } | { kind: 'exact'; reason: string };

/** The search model's mode a database's catalog shows, for `model` whose vectors have `dims` numbers (undefined: none stored yet). */
export function modelSearchMode(row: CatalogRow, model: string, dims: number | undefined): ModelSearchMode {
  const image = vectorSearchMode({ ...row, indexed: true });
  // The image index's own presence does not matter here (indexed: true): only pgvector's.
  if (image.kind === 'exact') return image;
  if (dims === undefined) return { kind: 'exact', reason: 'no vector of the model stored yet' };
  if (dims > MAX_INDEXED_DIMENSIONS) return { kind: 'exact', reason: `${dims} dimensions: pgvector indexes at most ${MAX_INDEXED_DIMENSIONS}` };
  if (!row.modelIndexes?.includes(modelIndexName(model, dims))) {
    return { kind: 'exact', reason: `no index yet: SELECT assets.ensure_model_embedding_index(${sqlLiteral(model)}, ${dims})` };
  }
  return { kind: 'hnsw', schema: image.schema, dims };
}

/** What /readyz shows after `search:` in `details["search.textToImage"]`. */
export function describeModelMode(mode: ModelSearchMode): string {
  return mode.kind === 'hnsw' ? `pgvector hnsw (${mode.dims} dimensions)` : `exact scan (${mode.reason})`;
}

/** The mode a database's catalog shows (pure; vector-index.spec.ts covers each case). */
export function vectorSearchMode(row: CatalogRow): VectorSearchMode {
  const retry = 'SELECT assets.ensure_embedding_index()';
  if (!row.schema) {
    return { kind: 'exact', reason: row.available ? `pgvector available, not enabled: CREATE EXTENSION vector, then ${retry}` : 'pgvector not installed' };
  }
  const version = row.version ?? '0';
  const [major = 0, minor = 0] = version.split('.').map((p) => Number.parseInt(p, 10) || 0);
  if (major === 0 && minor < MIN_MINOR) {
    return { kind: 'exact', reason: `pgvector ${version} installed: the index path needs 0.8.0 or later` };
  }
  if (!row.indexed) return { kind: 'exact', reason: `pgvector ${version} installed, no index: ${retry}` };
  return { kind: 'hnsw', schema: row.schema, version };
}

/** What /readyz shows under `details.search`. */
export function describeMode(mode: VectorSearchMode): string {
  return mode.kind === 'hnsw' ? `pgvector hnsw (pgvector ${mode.version})` : `exact scan (${mode.reason})`;
}

/**
 * Which way image similarity runs on this database: read from the catalog at
 * start and at every readiness probe (so `SELECT assets.ensure_embedding_index()`
 * run by an operator takes effect without a restart), shown in /readyz as
 * `details.search`. The index path's statements run with pgvector's strict-order
 * iterative scan, so a filtered or deep page still gets its nearest rows in order.
 * The same catalog read tells which search models' vectors have their HNSW index
 * (migration 0007: `modelMode`; `ensureModelIndex` builds one, for the embedder).
 */
@Injectable()
export class VectorIndex implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AssetSearch');
  private current: VectorSearchMode = { kind: 'exact', reason: 'not checked yet' };
  private catalog?: CatalogRow;
  private runner?: StatementRunner;
  private removeCheck?: () => void;

  constructor(
    @Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection,
    @Optional() private readonly readiness?: ReadinessRegistry,
  ) {}

  get mode(): VectorSearchMode {
    return this.current;
  }

  async onModuleInit(): Promise<void> {
    await this.refresh();
    this.logger.log(`image similarity: ${describeMode(this.current)}`);
    this.removeCheck = this.readiness?.register('search', async () => describeMode(await this.refresh()));
  }

  async onModuleDestroy(): Promise<void> {
    this.removeCheck?.();
    await this.runner?.close();
  }

  /** The schema pgvector is installed in (as last read), whatever its version and indexes; undefined: not installed. */
  get pgvectorSchema(): string | undefined {
    return this.catalog?.schema ?? undefined;
  }

  /**
   * The search model's mode for its vectors of `dims` numbers (the query vector's length), from the
   * catalog as last read: the index path needs its index (migration 0007) and pgvector 0.8.
   */
  modelMode(model: string, dims: number | undefined): ModelSearchMode {
    return this.catalog ? modelSearchMode(this.catalog, model, dims) : { kind: 'exact', reason: 'not checked yet' };
  }

  /** Reads the catalog again. */
  async refresh(): Promise<VectorSearchMode> {
    const [row] = await this.db.query<CatalogRow>(
      `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
              n.nspname AS schema, e.extversion AS version,
              EXISTS (SELECT 1 FROM pg_indexes WHERE schemaname = 'assets' AND indexname = $1) AS indexed,
              ARRAY(SELECT indexname::text FROM pg_indexes WHERE schemaname = 'assets' AND indexname LIKE 'assets\\_model\\_embedding\\_%\\_hnsw') AS "modelIndexes"
         FROM (SELECT 1) one
         LEFT JOIN pg_extension e ON e.extname = 'vector'
         LEFT JOIN pg_namespace n ON n.oid = e.extnamespace`,
      [VECTOR_INDEX_NAME],
    );
    this.catalog = row;
    this.current = vectorSearchMode(row);
    return this.current;
  }

  /**
   * Builds the search model's HNSW index for `model` and `dims` where pgvector is installed (migration
   * 0007's function: idempotent, once across replicas), then reads the catalog again. Answers the mode.
   * Called by the embedder, never on a search's path: the build makes writes to assets wait.
   */
  async ensureModelIndex(model: string, dims: number): Promise<ModelSearchMode> {
    await this.refresh();
    const before = this.modelMode(model, dims);
    // Only where the index could be used (pgvector 0.8 installed, a dimension it indexes, no index yet).
    if (before.kind === 'hnsw' || !/^no index yet/.test(before.reason)) return before;
    await this.db.query('SELECT assets.ensure_model_embedding_index($1, $2::int)', [model, dims]);
    await this.refresh();
    return this.modelMode(model, dims);
  }

  /** Statements of the index path: strict-order iterative scans, a search list fitting a page of 100. */
  statements(): StatementRunner {
    this.runner ??= this.db.withSettings({ 'hnsw.iterative_scan': 'strict_order', 'hnsw.ef_search': '100' }, { poolSize: 4 });
    return this.runner;
  }
}
