import type { PostgresConnection } from '@genasset/persistence';

/** What the database did, from PostgreSQL's cumulative statistics for the bench's database. */
export interface DatabaseWork {
  /** Committed transactions (a statement outside BEGIN/COMMIT is one). */
  transactions: number;
  deliveryInserts: number;
  deliveryUpdates: number;
  /** Updates made in place (HOT): no index entry written. */
  deliveryHotUpdates: number;
}

export async function databaseWork(db: PostgresConnection): Promise<DatabaseWork> {
  const [row] = await db.query<{ xact: string; ins: string; upd: string; hot: string }>(
    `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS xact,
            n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot
       FROM pg_stat_user_tables WHERE schemaname = 'webhooks' AND relname = 'webhook_deliveries'`,
  );
  return {
    transactions: Number(row.xact),
    deliveryInserts: Number(row.ins),
    deliveryUpdates: Number(row.upd),
    deliveryHotUpdates: Number(row.hot),
  };
}

/**
 * Per delivery over the whole bench. Other sessions publish their statistics
 * when idle, at most every second and at the latest 10 s after their last
 * transaction (PostgreSQL 15+), so the caller waits that long first.
 */
export function describeWork(before: DatabaseWork, after: DatabaseWork): string {
  const deliveries = after.deliveryInserts - before.deliveryInserts;
  const updates = after.deliveryUpdates - before.deliveryUpdates;
  const hot = after.deliveryHotUpdates - before.deliveryHotUpdates;
  const per = (n: number) => (n / Math.max(1, deliveries)).toFixed(3);
  return (
    `${deliveries} deliveries: ${per(after.transactions - before.transactions)} transactions, ` +
    `${per(updates)} row updates (${Math.round((100 * hot) / Math.max(1, updates))} % in place) per delivery`
  );
}
