import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import type { DatabaseConnection } from './database';
import { lockDataDir } from './data-dir-lock';
import { PgliteConnection } from './pglite-connection';
import { PostgresConnection } from './postgres-connection';

export interface ConnectionSettings {
  DATABASE_URL?: string;
  DATABASE_POOL_SIZE?: number;
  DATA_DIR: string;
}

/**
 * DATABASE_URL set → PostgreSQL; unset → embedded PGlite under DATA_DIR/pgdata,
 * opened only under the data directory's lock (lockDataDir), which closing the
 * connection releases. So a PGlite connection from here means: no other
 * process uses this database.
 */
export async function openConnection(settings: ConnectionSettings, applicationName?: string): Promise<DatabaseConnection> {
  if (settings.DATABASE_URL) {
    return new PostgresConnection(settings.DATABASE_URL, { poolSize: settings.DATABASE_POOL_SIZE, applicationName });
  }
  const lock = lockDataDir(settings.DATA_DIR);
  if (lock.tookOverFrom) {
    const gone = lock.tookOverFrom;
    new Logger('DataDirLock').log(`took over ${lock.path} from process ${gone.pid} on ${gone.hostname}, which is gone (crashed or killed)`);
  }
  try {
    const dir = resolve(join(settings.DATA_DIR, 'pgdata'));
    mkdirSync(dir, { recursive: true });
    return await PgliteConnection.open(dir, lock.release);
  } catch (error) {
    lock.release();
    throw error;
  }
}
