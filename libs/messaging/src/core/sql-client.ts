/**
 * The slice of a generated Prisma 7 client — and of the transaction client its
 * `$transaction(fn)` hands out — that messaging uses. Working on this instead of
 * a concrete client keeps the library free of any one service's schema, and
 * lets a handler's effect and the inbox mark share one transaction.
 */
export interface SqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

export interface TransactionOptions {
  /** How long to wait for a pooled connection. */
  maxWait?: number;
  /** How long the whole transaction may run before Prisma rolls it back. */
  timeout?: number;
}

/** A Prisma client: raw SQL plus interactive transactions. */
export interface TransactionalClient<Tx extends SqlClient = SqlClient> extends SqlClient {
  $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: TransactionOptions): Promise<R>;
}

/** Quotes a schema name we build SQL with; only plain lower-case identifiers pass. */
export function schemaIdent(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unsafe schema name for messaging: ${schema}`);
  return `"${schema}"`;
}
