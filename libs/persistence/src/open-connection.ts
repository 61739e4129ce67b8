import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DatabaseConnection } from './database';
import { PgliteConnection } from './pglite-connection';
import { PostgresConnection } from './postgres-connection';

export interface ConnectionSettings {
  DATABASE_URL?: string;
  DATABASE_POOL_SIZE?: number;
  DATA_DIR: string;
}

/** DATABASE_URL set → PostgreSQL; unset → embedded PGlite under DATA_DIR/pgdata. */
export async function openConnection(settings: ConnectionSettings, applicationName?: string): Promise<DatabaseConnection> {
  if (settings.DATABASE_URL) {
    return new PostgresConnection(settings.DATABASE_URL, { poolSize: settings.DATABASE_POOL_SIZE, applicationName });
  }
  const dir = resolve(join(settings.DATA_DIR, 'pgdata'));
  mkdirSync(dir, { recursive: true });
  return PgliteConnection.open(dir);
}
