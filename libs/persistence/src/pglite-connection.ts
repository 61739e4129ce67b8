import { PGlite } from '@electric-sql/pglite';
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

/**
 * Embedded PostgreSQL (PGlite, WASM) persisted in a data directory, or in
 * memory when no directory is given. One connection for the whole process:
 * PGlite serialises statements and transactions itself.
 *
 * pgvector is loaded, so `CREATE EXTENSION vector` works here (asset search's
 * vector index, docs/search.md); it costs nothing until a database creates it.
 * Always loaded: a data directory whose database created the extension needs
 * it at every later open.
 */
export class PgliteConnection implements DatabaseConnection {
  readonly kind = 'pglite' as const;

  private constructor(
    private readonly db: PGlite,
    private readonly onClose?: () => void,
  ) {}

  /** `onClose` runs once the database is closed (openConnection releases the data directory's lock there). */
  static async open(dataDir?: string, onClose?: () => void): Promise<PgliteConnection> {
    const options = { extensions: { vector } };
    const db = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
    await db.waitReady;
    return new PgliteConnection(db, onClose);
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
