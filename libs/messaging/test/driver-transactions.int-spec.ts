import type { DatabaseConnection } from '@genasset/persistence';
import { DATABASE_KINDS, openTestConnection, type TestConnection } from '@genasset/testing';
import { driverTransactionalClient, type TransactionalClient } from '../src';

// Consumers with consumerTransactions: 'driver' run their handlers in these transactions:
// all or nothing, like Prisma's, and bounded by the same timeout.
describe.each(DATABASE_KINDS)('driverTransactionalClient on %s', (_name, kind) => {
  let connection: TestConnection | undefined;
  let db: DatabaseConnection;
  let client: TransactionalClient;
  const rows = async () =>
    (await db.query<{ v: string }>('SELECT v FROM driver_tx ORDER BY v')).map((r) => r.v);

  beforeAll(async () => {
    connection = await openTestConnection(kind, 'driver_tx', { poolSize: 2 });
    db = connection.db;
    await db.query('CREATE TABLE driver_tx (v text PRIMARY KEY)');
    client = driverTransactionalClient({
      query: (sql, params) => db.query(sql, params),
      transaction: (fn) => db.transaction(fn),
    });
  });
  afterEach(() => db.query('DELETE FROM driver_tx'));
  afterAll(() => connection?.close());

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
