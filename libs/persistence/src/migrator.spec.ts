import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from './migrator';
import { PgliteConnection } from './pglite-connection';

// PGlite is in-process PostgreSQL (no network), so the migrator's SQL is exercised for real here.
// Starting it is CPU-bound WASM work: ~1 s on a quiet machine, more than jest's 5 s default on a
// loaded one (seen in a CI run beside benchmarks at load average 10).
jest.setTimeout(30_000);

describe('migrate', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '0001_first.sql'), 'CREATE TABLE things (id text PRIMARY KEY, n integer);');
    writeFileSync(join(dir, '0002_second.sql'), 'ALTER TABLE things ADD COLUMN label text NOT NULL DEFAULT \'x\';');
    writeFileSync(join(dir, 'README.md'), 'not a migration');
  });

  it('applies files in order into the schema, once', async () => {
    const db = await PgliteConnection.open();
    const definition = { schema: 'sample', migrations: [{ source: 'sample', dir }] };
    expect(await migrate(db, definition)).toEqual([
      { name: 'sample/0001_first.sql', applied: true },
      { name: 'sample/0002_second.sql', applied: true },
    ]);
    expect((await migrate(db, definition)).every((r) => !r.applied)).toBe(true);
    await db.query(`INSERT INTO sample.things (id) VALUES ('a')`);
    expect(await db.query(`SELECT id, label FROM sample.things`)).toEqual([{ id: 'a', label: 'x' }]);
    await db.close();
  });

  it('refuses a migration edited after it was applied', async () => {
    const db = await PgliteConnection.open();
    const definition = { schema: 'sample', migrations: [{ source: 'sample', dir }] };
    await migrate(db, definition);
    writeFileSync(join(dir, '0001_first.sql'), 'CREATE TABLE things (id text PRIMARY KEY);');
    await expect(migrate(db, definition)).rejects.toThrow(/0001_first.sql was changed after it was applied/);
    await db.close();
  });

  it('rolls back a failing migration entirely', async () => {
    const db = await PgliteConnection.open();
    writeFileSync(join(dir, '0003_broken.sql'), 'CREATE TABLE more (id text); SELECT no_such_function();');
    await expect(migrate(db, { schema: 'sample', migrations: [{ source: 'sample', dir }] })).rejects.toThrow();
    const tables = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'sample'`);
    expect(tables).toEqual([]);
    await db.close();
  });
});
