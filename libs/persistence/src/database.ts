import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';

export type Row = Record<string, unknown>;

/**
 * One physical database, shared by the Prisma clients of the services that run
 * in this process. Two drivers implement it: PostgreSQL over `pg` (distributed
 * mode, tests) and embedded PGlite (embedded mode). Everything above this
 * interface is the same code in both.
 */
export interface DatabaseConnection {
  readonly kind: 'postgres' | 'pglite';
  /** Driver adapter factory for `new PrismaClient({ adapter })`. */
  prismaAdapter(): SqlDriverAdapterFactory;
  /** Raw parameterised query outside Prisma (migrations, LISTEN, health checks). */
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction on one connection; used by the migrator. */
  transaction<T>(fn: (query: <R extends Row = Row>(sql: string, params?: unknown[]) => Promise<R[]>) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Cheap reachability check for readiness probes. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** SQL identifier quoting for schema/channel names we build ourselves. */
export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}
