import { createTestDatabase, type TestDatabase } from '@genasset/testing';
import { PostgresConnection } from '../src/postgres-connection';
import { prepared } from '../src/prepared-statements';

// Hot statements marked with prepared() are parsed and planned once per session, then only bound
// and executed; everything else still runs unnamed, so text built per call never piles up.
describe('prepared statements on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresConnection;
  // One session: what the session holds is what every later call sees.
  beforeAll(async () => {
    database = await createTestDatabase('pg_prepared');
    db = new PostgresConnection(database.url, { poolSize: 1 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const held = () =>
    db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY prepare_time');

  it('runs a marked statement as one named statement per session, reused on every path, with fresh parameters', async () => {
    const doubled = prepared('SELECT $1::int * 2 AS doubled /* prepared spec */');
    expect(await db.query(doubled, [2])).toEqual([{ doubled: 4 }]);
    expect(await db.transaction((query) => query(doubled, [5]))).toEqual([{ doubled: 10 }]);
    const runner = db.withSettings({ statement_timeout: '5s' }, { poolSize: 1 });
    try {
      expect(await runner.query(doubled, [7])).toEqual([{ doubled: 14 }]);
    } finally {
      await runner.close();
    }
    expect((await held()).map((s) => s.statement)).toEqual([doubled]);
    // An unmarked statement leaves nothing behind in the session.
    expect(await db.query('SELECT $1::int + 1 AS next', [1])).toEqual([{ next: 2 }]);
    expect((await held()).map((s) => s.statement)).toEqual([doubled]);
  });

  it('is usable again after a transaction that failed while preparing it was rolled back', async () => {
    const tripled = prepared('SELECT $1::int * 3 AS tripled /* prepared spec */');
    const aborted = db.transaction(async (query) => {
      await query('SELECT 1 / 0').catch(() => undefined);
      // The transaction is aborted: the server refuses to parse the marked statement.
      return query(tripled, [1]);
    });
    await expect(aborted).rejects.toThrow(/current transaction is aborted/);
    expect(await db.transaction((query) => query(tripled, [3]))).toEqual([{ tripled: 9 }]);
    expect(await db.query(tripled, [4])).toEqual([{ tripled: 12 }]);
  });
});
