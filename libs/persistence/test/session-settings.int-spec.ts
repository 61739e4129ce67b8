import { DATABASE_KINDS, openTestConnection, type TestConnection } from '@genasset/testing';
import type { DatabaseConnection } from '../src/database';

// withSettings pins settings for its own statements only: the connection's other sessions keep theirs.
describe.each(DATABASE_KINDS)('DatabaseConnection.withSettings on %s', (_name, kind) => {
  let connection: TestConnection | undefined;
  let db: DatabaseConnection;

  beforeAll(async () => {
    connection = await openTestConnection(kind, 'session_settings', { poolSize: 2 });
    db = connection.db;
  });
  afterAll(() => connection?.close());

  it('runs every statement under the settings and leaves the other sessions alone', async () => {
    const pinned = db.withSettings({ enable_seqscan: 'off', work_mem: '8MB' });
    try {
      const runs = await Promise.all(
        [1, 2, 3].map(() =>
          pinned.query<{ seqscan: string; work_mem: string }>(
            "SELECT current_setting('enable_seqscan') AS seqscan, current_setting('work_mem') AS work_mem",
          ),
        ),
      );
      expect(runs.flat()).toEqual(Array(3).fill({ seqscan: 'off', work_mem: '8MB' }));
      expect(await db.query("SELECT current_setting('enable_seqscan') AS seqscan")).toEqual([
        { seqscan: 'on' },
      ]);
    } finally {
      await pinned.close();
    }
  });

  it('commits each statement on its own', async () => {
    const pinned = db.withSettings({ enable_seqscan: 'off' });
    try {
      await pinned.query('CREATE TABLE IF NOT EXISTS pinned_rows (n int)');
      await pinned.query('INSERT INTO pinned_rows VALUES ($1), ($2)', [1, 2]);
      expect(await db.query('SELECT n FROM pinned_rows ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await pinned.close();
    }
  });

  it('refuses names and values that are not plain words (they are spliced into SQL)', () => {
    expect(() => db.withSettings({ 'enable_seqscan; DROP TABLE x': 'off' })).toThrow(/unsafe setting name/);
    expect(() => db.withSettings({ enable_seqscan: "off' -c x=1" })).toThrow(/unsafe value/);
  });
});
