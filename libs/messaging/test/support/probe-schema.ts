import { join } from 'node:path';
import { migrate, type DatabaseConnection } from '@genasset/persistence';
import { MESSAGING_MIGRATIONS } from '../../src';

/**
 * Two "services" in one test database: `probe_src` produces probe events
 * (its ledger is the state change, committed with the outbox rows), `probe`
 * consumes them (ledger + balances, inbox, dead letters).
 */
export const SOURCE_SCHEMA = 'probe_src';
export const SINK_SCHEMA = 'probe';

const PROBE_MIGRATIONS = { source: 'probe', dir: join(__dirname, '../prisma/migrations') };

export async function migrateProbe(connection: DatabaseConnection): Promise<void> {
  for (const schema of [SOURCE_SCHEMA, SINK_SCHEMA]) {
    await migrate(connection, { schema, migrations: [PROBE_MIGRATIONS, MESSAGING_MIGRATIONS] });
  }
}

export type BalanceRow = {
  subject: string;
  total: number;
  events: number;
  last_sequence: number;
  out_of_order: number;
};

export async function balances(connection: DatabaseConnection, prefix: string): Promise<Map<string, BalanceRow>> {
  const rows = await connection.query<Omit<BalanceRow, 'total'> & { total: string }>(
    `SELECT subject, total::text AS total, events, last_sequence, out_of_order FROM ${SINK_SCHEMA}.balances WHERE subject LIKE $1`,
    [`${prefix}%`],
  );
  return new Map(rows.map((r) => [r.subject, { ...r, total: Number(r.total) }]));
}

export async function appliedCount(connection: DatabaseConnection, prefix: string): Promise<number> {
  const [row] = await connection.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SINK_SCHEMA}.ledger WHERE subject LIKE $1`, [`${prefix}%`]);
  return row.n;
}
