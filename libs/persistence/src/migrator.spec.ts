import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedShape } from './schema-drift';
import { migrate } from './migrator';
import { PgliteConnection } from './pglite-connection';

// PGlite is in-process PostgreSQL (no network), so the migrator's SQL is exercised for real here.
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

describe('expectedShape', () => {
  it('reads columns, native types, nullability and unique keys from a Prisma schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prisma-'));
    const file = join(dir, 'schema.prisma');
    writeFileSync(
      file,
      `datasource db {\n provider = "postgresql"\n}\nmodel Widget {\n id String @id\n code String @unique\n at DateTime @map("at_ms") @db.Timestamptz(3)\n note String?\n tags String[]\n @@unique([code, note])\n @@map("widgets")\n}\n`,
    );
    const shape = expectedShape(file);
    expect(shape.columns).toEqual([
      { table: 'widgets', column: 'at_ms', type: 'timestamp(3) with time zone', nullable: false },
      { table: 'widgets', column: 'code', type: 'text', nullable: false },
      { table: 'widgets', column: 'id', type: 'text', nullable: false },
      { table: 'widgets', column: 'note', type: 'text', nullable: true },
      { table: 'widgets', column: 'tags', type: 'text[]', nullable: false },
    ]);
    expect(shape.uniques).toEqual(['widgets(code)', 'widgets(code,note)', 'widgets(id)']);
  });
});
