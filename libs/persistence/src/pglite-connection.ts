import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import {
  quoteIdent,
  setLocalStatements,
  type DatabaseConnection,
  type Row,
  type SessionSettings,
  type StatementRunner,
} from './database';

// The `./contrib/*` subpath is in the package's exports, which Node reads and this tsconfig's node10 resolution does not.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { btree_gin } = require('@electric-sql/pglite/contrib/btree_gin') as { btree_gin: Extension };

/**
 * PGlite's own start parameters, plus a smaller buffer pool: initdb's 128 MB of
 * shared_buffers lives inside the WASM memory, which never shrinks, and was a
 * third of the embedded platform's idle RSS. An embedded database is small and
 * the OS page cache still holds its files: 16 MB cut idle RSS by ~90 MB (the
 * WASM memory from 207 to 153 MB) with the same query plans. A `-c` setting
 * here overrides postgresql.conf without rewriting it (PGlite's
 * `postgresqlconf` option would replace the whole file initdb wrote).
 */
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * A new data directory gets its initdb in a short-lived child process. Run in
 * this process, initdb's own WASM instance (~450 MB) stayed reachable after
 * PGlite had started: a first start idled at 890 MB RSS, a second at 410 MB.
 * The child opens and closes the directory; this process then opens an
 * initialised one. Costs one node start (~1 s), once per directory.
 */
async function initDataDirApart(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const script = `const { PGlite } = require(process.argv[1]);
    const db = new PGlite({ dataDir: process.argv[2] });
    db.waitReady.then(() => db.close()).catch((error) => { console.error(error); process.exit(1); });`;
  await promisify(execFile)(process.execPath, ['-e', script, require.resolve('@electric-sql/pglite'), dataDir], {
    // The platform's NODE_OPTIONS (a --require hook, inspector flags) are not the child's business.
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 120_000,
  });
}

/**
 * Embedded PostgreSQL (PGlite, WASM) persisted in a data directory, or in
 * memory when no directory is given. One connection for the whole process:
 * PGlite serialises statements and transactions itself.
 *
 * pgvector and btree_gin are loaded, so `CREATE EXTENSION vector` and
 * `btree_gin` work here (asset search's vector index and project text index,
 * docs/search.md); each costs nothing until a database creates it. Always
 * loaded: a data directory whose database created an extension needs it at
 * every later open.
 */
/** pgvector, btree_gin: search's HNSW and project text indexes where they are available (docs/search.md). */
async function startPglite(dataDir: string | undefined): Promise<PGlite> {
  const db = new PGlite({ dataDir, startParams: EMBEDDED_START_PARAMS, extensions: { vector, btree_gin } });
  await db.waitReady;
  return db;
}

export class PgliteConnection implements DatabaseConnection {
  readonly kind = 'pglite' as const;

  private constructor(
    private db: PGlite,
    private readonly dataDir: string | undefined,
    private readonly onClose?: () => void,
  ) {}

  /** `onClose` runs once the database is closed (openConnection releases the data directory's lock there). */
  static async open(dataDir?: string, onClose?: () => void): Promise<PgliteConnection> {
    if (dataDir) await initDataDirApart(dataDir);
    return new PgliteConnection(await startPglite(dataDir), dataDir, onClose);
  }

  /**
   * Closes the database and opens it again, before anything else has used
   * it (no Prisma adapter, no LISTEN). For after migrations: the WASM memory
   * they grew never shrinks, and a first start, which applies every migration,
   * idled at 406 MB RSS against 304–318 MB for a later start; reopened, 364–370
   * MB (the rest is the new instance's own first-start work). Costs one PGlite
   * start (~0.5 s), only when migrations were applied.
   */
  async reopen(): Promise<void> {
    await this.db.close();
    this.db = await startPglite(this.dataDir);
  }

  prismaAdapter() {
    return new PrismaPGlite(this.db);
  }

  async query<T extends Row = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (params.length === 0 && /;\s*\S/.test(sql)) {
      // Multi-statement scripts (migrations) go through the simple protocol.
      const results = await this.db.exec(sql);
      return (results.at(-1)?.rows ?? []) as T[];
    }
    return (await this.db.query<T>(sql, params)).rows;
  }

  async transaction<T>(
    fn: (query: <R extends Row = Row>(sql: string, params?: unknown[]) => Promise<R[]>) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (tx) =>
      fn(async <R extends Row = Row>(sql: string, params: unknown[] = []) => {
        if (params.length === 0 && /;\s*\S/.test(sql)) {
          const results = await tx.exec(sql);
          return (results.at(-1)?.rows ?? []) as R[];
        }
        return (await tx.query<R>(sql, params)).rows;
      }),
    );
  }

  withSettings(settings: SessionSettings): StatementRunner {
    // One in-process connection: the settings are pinned per statement, in its own transaction.
    const set = setLocalStatements(settings);
    return {
      query: <T extends Row = Row>(sql: string, params: unknown[] = []) =>
        this.db.transaction(async (tx) => {
          await tx.exec(set);
          return (await tx.query<T>(sql, params)).rows;
        }),
      close: async () => undefined,
    };
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    quoteIdent(channel);
    const unsubscribe = await this.db.listen(channel, onNotify);
    return async () => unsubscribe();
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
    this.onClose?.();
  }
}
