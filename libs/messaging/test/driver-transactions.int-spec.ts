import { PgliteConnection, PostgresConnection, type DatabaseConnection } from '@genasset/persistence';
import { createTestDatabase, type TestDatabase } from '@genasset/testing';
import { driverTransactionalClient, type TransactionalClient } from '../src';

// Consumers with consumerTransactions: 'driver' run their handlers in these transactions:
// all or nothing, like Prisma's, and bounded by the same timeout.
describe.each([
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const)('driverTransactionalClient on %s', (_name, kind) => {
  let database: TestDatabase | undefined;
  let db: DatabaseConnection;
  let client: TransactionalClient;
  const rows = async () =>
    (await db.query<{ v: string }>('SELECT v FROM driver_tx ORDER BY v')).map((r) => r.v);

  beforeAll(async () => {
    if (kind === 'postgres') {
      database = await createTestDatabase('driver_tx');
      db = new PostgresConnection(database.url, { poolSize: 2 });
    } else {
      db = await PgliteConnection.open();
    }
    await db.query('CREATE TABLE driver_tx (v text PRIMARY KEY)');
    client = driverTransactionalClient({
      query: (sql, params) => db.query(sql, params),
      transaction: (fn) => db.transaction(fn),
    });
  });
  afterEach(() => db.query('DELETE FROM driver_tx'));
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('commits every statement of the callback and returns its result', async () => {
    const result = await client.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO driver_tx VALUES ($1)', 'a');
      await tx.$executeRawUnsafe('INSERT INTO driver_tx VALUES ($1)', 'b');
      return tx.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM driver_tx');
    });
    expect(result).toEqual([{ n: 2 }]);
    expect(await rows()).toEqual(['a', 'b']);
  });

  it('rolls everything back when the callback throws', async () => {
    await expect(
      client.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('INSERT INTO driver_tx VALUES ($1)', 'a');
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    expect(await rows()).toEqual([]);
  });

  it('past its timeout fails, rolls back, and refuses the late statements of the callback', async () => {
    let late: PromiseLike<unknown> | undefined;
    await expect(
      client.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe('INSERT INTO driver_tx VALUES ($1)', 'early');
          await new Promise((resolve) => setTimeout(resolve, 300));
          late = tx.$executeRawUnsafe('INSERT INTO driver_tx VALUES ($1)', 'late');
          await late;
        },
        { timeout: 100 },
      ),
    ).rejects.toThrow('transaction timed out after 100 ms');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(Promise.resolve(late)).rejects.toThrow('the transaction has ended');
    expect(await rows()).toEqual([]);
  });
});
