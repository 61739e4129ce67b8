import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testServices } from './test-services';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, uniquely named database on the test server, so test files never see
 * each other's rows. Only databases this function created are ever dropped.
 */
export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const admin = testServices().postgresUrl;
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  await withClient(admin, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
