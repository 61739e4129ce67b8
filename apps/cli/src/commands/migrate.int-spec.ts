// The CLI loads these libraries lazily so that a command starts fast (main.ts); a test of the migrations
// has no start time to keep, so it imports them as any test does.
/* eslint-disable @nx/enforce-module-boundaries */
import { MESSAGING_TABLES } from '@genasset/messaging';
import { migrate, type DatabaseConnection } from '@genasset/persistence';
import { ALL_SCHEMAS } from '@genasset/service-catalog';
import {
  actualShape,
  DATABASE_KINDS,
  expectedShape,
  openTestConnection,
  type TestConnection,
} from '@genasset/testing';

/**
 * Migrations are hand-written SQL (Prisma 7's migrate cannot run here), so this
 * proves, on both drivers, that they build exactly the tables, columns, types,
 * nullability and unique indexes each Prisma schema describes.
 */
describe.each(DATABASE_KINDS)('migrations on %s', (_label, kind) => {
  let opened: TestConnection | undefined;
  let connection: DatabaseConnection;

  beforeAll(async () => {
    opened = await openTestConnection(kind, 'migrate');
    connection = opened.db;
    for (const definition of ALL_SCHEMAS) await migrate(connection, definition);
  });

  afterAll(() => opened?.close());

  it.each(ALL_SCHEMAS.map((d) => [d.schema, d] as const))('schema %s matches its Prisma schema', async (_name, definition) => {
    expect(definition.prismaSchema).toBeDefined();
    const expected = expectedShape(definition.prismaSchema!);
    const actual = await actualShape(connection, definition.schema, MESSAGING_TABLES);
    expect(actual.columns).toEqual(expected.columns);
    expect(actual.uniques).toEqual(expected.uniques);
  });

  it('creates the messaging tables in every service schema', async () => {
    for (const definition of ALL_SCHEMAS.filter((d) => d.schema !== 'identity')) {
      const rows = await connection.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
        [definition.schema],
      );
      expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining([...MESSAGING_TABLES]));
    }
  });

  it('is idempotent: a second run applies nothing', async () => {
    for (const definition of ALL_SCHEMAS) {
      const results = await migrate(connection, definition);
      expect(results.filter((r) => r.applied)).toEqual([]);
    }
  });
});
