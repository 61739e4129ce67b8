import { Inject, Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ReadinessRegistry } from '@genasset/http';
import { DATABASE_CONNECTION, type DatabaseConnection, type StatementRunner } from '@genasset/persistence';

/** The index migration 0004 creates where the database has pgvector. */
export const VECTOR_INDEX_NAME = 'assets_embedding_hnsw_idx';
/** Iterative index scans (strict order), which keep a filtered nearest-neighbour query complete, came in pgvector 0.8.0. */
const MIN_MINOR = 8;

/** How image similarity is answered: through the HNSW index, or by the exact scan (and why). */
export type VectorSearchMode = { kind: 'hnsw'; schema: string; version: string } | { kind: 'exact'; reason: string };

type CatalogRow = {
  available: boolean;
  schema: string | null;
  version: string | null;
  indexed: boolean;
};

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
 */
@Injectable()
export class VectorIndex implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AssetSearch');
  private current: VectorSearchMode = { kind: 'exact', reason: 'not checked yet' };
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

  /** Reads the catalog again. */
  async refresh(): Promise<VectorSearchMode> {
    const [row] = await this.db.query<CatalogRow>(
      `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
              n.nspname AS schema, e.extversion AS version,
              EXISTS (SELECT 1 FROM pg_indexes WHERE schemaname = 'assets' AND indexname = $1) AS indexed
         FROM (SELECT 1) one
         LEFT JOIN pg_extension e ON e.extname = 'vector'
         LEFT JOIN pg_namespace n ON n.oid = e.extnamespace`,
      [VECTOR_INDEX_NAME],
    );
    this.current = vectorSearchMode(row);
    return this.current;
  }

  /** Statements of the index path: strict-order iterative scans, a search list fitting a page of 100. */
  statements(): StatementRunner {
    this.runner ??= this.db.withSettings({ 'hnsw.iterative_scan': 'strict_order', 'hnsw.ef_search': '100' }, { poolSize: 4 });
    return this.runner;
  }
}
