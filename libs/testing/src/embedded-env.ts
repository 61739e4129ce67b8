import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteConnection } from '@genasset/persistence';

/** The test services' settings switched off: empty values count as unset, so a process runs embedded whatever was exported. */
const NO_TEST_SERVICES = {
  DATABASE_URL: '',
  KAFKA_BROKERS: '',
  S3_ENDPOINT: '',
  S3_BUCKET: '',
} as const;

/**
 * Environment that makes a spawned platform run embedded (PGlite, in-process events, filesystem
 * store) however the test services were exported to this process, and provision its own admin
 * token: the empty values override the inherited DATABASE_URL, KAFKA_BROKERS and S3_*.
 */
export const EMBEDDED_PLATFORM_ENV = { ...NO_TEST_SERVICES, ADMIN_TOKEN: '' } as const;

/** Environment of an in-process service harness running embedded: PGlite and files under `dataDir`, served on `port`. */
export function embeddedServiceEnv(dataDir: string, port: number): Record<string, string> {
  return { ...NO_TEST_SERVICES, DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
}

/**
 * Gives `dataDir` a PGlite cluster that is initialised but empty (no schema, no migration applied),
 * copied from one made once per PGlite build on this machine. A new data directory's initdb runs
 * PGlite's WASM initdb in a child node process: 6.8 s of a 9.7 s first open measured alone (the
 * migrations, which the process under test still applies itself, took 2.5 s), and about ten
 * embedded test files each paid it. A copy takes a fraction of a second. Not for tests of a first
 * start itself (embedded-mode.int-spec.ts starts on an empty directory).
 */
export async function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  const pglite = require.resolve('@electric-sql/pglite');
  const template = join(tmpdir(), `genasset-pglite-initdb-${createHash('sha256').update(pglite).digest('hex').slice(0, 12)}`);
  if (!existsSync(join(template, 'PG_VERSION'))) {
    // Built beside and renamed into place: test files in parallel never copy a half-made cluster.
    const building = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await (await PgliteConnection.open(building)).close();
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another file made it first
    }
  }
  mkdirSync(dataDir, { recursive: true });
  cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
}
