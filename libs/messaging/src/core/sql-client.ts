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

/** One statement of a raw transaction (`DatabaseConnection.transaction` of @genasset/persistence). */
export type RawQuery = <R extends Record<string, unknown> = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<R[]>;

/**
 * Runs `fn` in one transaction on one pooled connection, with plain driver
 * calls: what the relay uses for its own SQL when it has the connection, since
 * it needs no ORM and an ORM round trip costs several times a driver's.
 */
export type RawTransaction = <T>(fn: (query: RawQuery) => Promise<T>) => Promise<T>;

/** A raw transaction's query function as the `SqlClient` the stores are written against. */
export function rawSqlClient(query: RawQuery): SqlClient {
  return {
    $queryRawUnsafe: <T>(sql: string, ...values: unknown[]) => query(sql, values) as Promise<T>,
    $executeRawUnsafe: async (sql: string, ...values: unknown[]) => (await query(sql, values)).length,
  };
}

/**
 * `fn` in one raw transaction, bounded by `timeoutMs` as Prisma bounds its own: past it the
 * transaction fails and rolls back, and any later statement of `fn` is refused rather than run
 * outside it. Used by the outbox relay and by driver-run consumers.
 */
export function boundedRawTransaction<R>(
  transaction: RawTransaction,
  fn: (tx: SqlClient) => Promise<R>,
  timeoutMs?: number,
): Promise<R> {
  return transaction(async (query) => {
    let open = true;
    const tx = rawSqlClient((sql, params) =>
      open
        ? query(sql, params)
        : Promise.reject(new Error('the transaction has ended (timed out): statement not run')),
    );
    const work = fn(tx);
    let timer: NodeJS.Timeout | undefined;
    const expired = timeoutMs
      ? new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`transaction timed out after ${timeoutMs} ms`)),
            timeoutMs,
          );
        })
      : undefined;
    try {
      return await (expired ? Promise.race([work, expired]) : work);
    } finally {
      open = false;
      clearTimeout(timer);
      work.catch(() => undefined);
    }
  });
}

/**
 * A `TransactionalClient` on the driver (`DatabaseConnection` of @genasset/persistence) instead of
 * the ORM, for consumers whose handlers only send raw SQL: each statement is a driver round trip,
 * without the ORM's per-statement and per-row work (the webhook intake: 6–7 % of the dispatcher's
 * CPU, bench/webhooks/README.md). As with `rawSqlClient`, `$executeRawUnsafe` resolves to the
 * number of rows the statement *returned* (add `RETURNING` to count), not Prisma's affected rows.
 */
export function driverTransactionalClient(db: {
  query: RawQuery;
  transaction: RawTransaction;
}): TransactionalClient {
  return {
    // Called as methods: `db` is usually a connection object whose methods use `this`.
    ...rawSqlClient((sql, params) => db.query(sql, params)),
    $transaction: <R>(fn: (tx: SqlClient) => Promise<R>, options?: TransactionOptions) =>
      boundedRawTransaction((work) => db.transaction(work), fn, options?.timeout),
  };
}

/** Quotes a schema name we build SQL with; only plain lower-case identifiers pass. */
export function schemaIdent(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unsafe schema name for messaging: ${schema}`);
  return `"${schema}"`;
}
