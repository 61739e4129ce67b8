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
  transaction<T>(
    fn: (query: <R extends Row = Row>(sql: string, params?: unknown[]) => Promise<R[]>) => Promise<T>,
  ): Promise<T>;
  /**
   * Runs single statements under fixed session settings (planner pins such as
   * `enable_seqscan: 'off'`), each statement its own implicit transaction.
   * PostgreSQL: a small pool of its own whose sessions start with the settings,
   * so a statement is one round trip instead of BEGIN, SET LOCAL, statement,
   * COMMIT. PGlite: that transaction, in-process. Close it when done.
   */
  withSettings(settings: SessionSettings, options?: { poolSize?: number }): StatementRunner;
  /**
   * Subscribes to NOTIFY on `channel`; resolves to an unsubscribe function.
   * `onGap` is called when the subscription was lost and is back (PostgreSQL:
   * the listening connection was reopened): notifications sent meanwhile are
   * gone, so a loop that sleeps until NOTIFY should look once. PGlite's
   * notifications are in-process and have no gaps.
   */
  listen(channel: string, onNotify: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>>;
  /** Cheap reachability check for readiness probes. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** PostgreSQL run-time settings by name, e.g. `{ enable_seqscan: 'off' }`. */
export type SessionSettings = Readonly<Record<string, string>>;

/** Single statements under fixed settings (DatabaseConnection.withSettings). */
export interface StatementRunner {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** The settings as `SET LOCAL` statements (one transaction), names and values checked: they are spliced into SQL. */
export function setLocalStatements(settings: SessionSettings): string {
  return checkedSettings(settings)
    .map(([name, value]) => `SET LOCAL ${name} = '${value}'`)
    .join('; ');
}

/** The settings as libpq `options` (`-c name=value ...`), applied when a session starts. */
export function sessionOptions(settings: SessionSettings): string {
  return checkedSettings(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

function checkedSettings(settings: SessionSettings): [string, string][] {
  return Object.entries(settings).map(([name, value]) => {
    if (!/^[a-z_][a-z0-9_.]*$/.test(name)) throw new Error(`unsafe setting name: ${name}`);
    if (!/^[A-Za-z0-9_.-]+$/.test(value)) throw new Error(`unsafe value for ${name}: ${value}`);
    return [name, value];
  });
}

/** SQL identifier quoting for schema/channel names we build ourselves. */
export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}
