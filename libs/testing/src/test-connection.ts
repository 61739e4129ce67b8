import { PgliteConnection, PostgresConnection, type DatabaseConnection } from '@genasset/persistence';
import { createTestDatabase } from './test-database';

/** Both drivers a `DatabaseConnection` has, for `describe.each(DATABASE_KINDS)('… on %s', (_label, kind) => …)`. */
export const DATABASE_KINDS = [
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const;

export type DatabaseKind = (typeof DATABASE_KINDS)[number][1];

export interface TestConnection {
  db: DatabaseConnection;
  /** Closes the connection and drops the PostgreSQL test database. */
  close(): Promise<void>;
}

/** A connection to an empty database: a fresh test database of the real PostgreSQL, or an in-memory PGlite. */
export async function openTestConnection(
  kind: DatabaseKind,
  name: string,
  options: { poolSize?: number } = {},
): Promise<TestConnection> {
  if (kind === 'pglite') {
    const db = await PgliteConnection.open();
    return { db, close: () => db.close() };
  }
  const database = await createTestDatabase(name);
  const db = new PostgresConnection(database.url, options);
  return {
    db,
    async close() {
      await db.close();
      await database.drop();
    },
  };
}
