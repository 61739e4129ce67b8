import { createTestDatabase, waitFor, type TestDatabase } from '@genasset/testing';
import { TaskLoop, type ClaimedTask } from '../src/leased-work/claim-loop';
import { LeaseTable } from '../src/leased-work/lease-table';
import { PostgresConnection } from '../src/postgres-connection';

const CHANNEL = 'leased_work_test';

const JOBS = new LeaseTable({
  table: 'lw.jobs',
  key: 'id',
  holder: { column: 'claim_token', token: 'generated' },
  held: `status = 'running'`,
  pick: {
    claimable: `(status = 'queued' AND available_at <= now()) OR (status = 'running' AND lease_until < now())`,
    order: 'available_at, id',
  },
  onClaim: `status = 'running', attempts = attempts + 1`,
  touch: 'updated_at = now()',
});

type Claimed = { id: string; claim_token: string; attempts: number };

describe('leased work (LeaseTable, TaskLoop) on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresConnection;

  const claim = async (limit: number, leaseMs = 60_000) => {
    const { sql, params } = JOBS.claim(limit, leaseMs, 'id, claim_token, attempts');
    return (await db.query<Claimed>(sql, params)).sort((a, b) => a.id.localeCompare(b.id));
  };
  const run = async ({ sql, params }: { sql: string; params: unknown[] }) => (await db.query(sql, params)).length;
  const row = async (id: string) =>
    (await db.query<{ status: string; attempts: number; claim_token: string | null; leased: boolean }>(
      `SELECT status, attempts, claim_token, lease_until > now() AS leased FROM lw.jobs WHERE id = $1`,
      [id],
    ))[0];
  const queue = (...ids: string[]) => db.query(`INSERT INTO lw.jobs (id) SELECT unnest($1::text[])`, [ids]);

  beforeAll(async () => {
    database = await createTestDatabase('leased_work');
    db = new PostgresConnection(database.url, { poolSize: 4 });
    await db.query(`CREATE SCHEMA lw`);
    await db.query(`CREATE TABLE lw.jobs (
      id text PRIMARY KEY, status text NOT NULL DEFAULT 'queued', attempts int NOT NULL DEFAULT 0,
      claim_token text, lease_until timestamptz, available_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(), outcome text)`);
  });
  afterEach(async () => {
    await db.query(`DELETE FROM lw.jobs`);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('claims a batch oldest first, and a concurrent claim skips the rows it holds locked', async () => {
    await queue('a', 'b', 'c');
    const held = db.transaction(async (query) => {
      // This transaction locks 'a' (as a claim in progress would) while the other claims.
      await query(`SELECT 1 FROM lw.jobs WHERE id = 'a' FOR UPDATE`);
      const other = await claim(2);
      return other.map((r) => r.id);
    });
    expect(await held).toEqual(['b', 'c']);
    expect((await claim(5)).map((r) => [r.id, r.attempts])).toEqual([['a', 1]]);
    expect(await claim(5)).toEqual([]);
  });

  it('renews and ends only while the claim is held, and a lapsed lease is taken over with a new token', async () => {
    await queue('a');
    const [first] = await claim(1, 50);
    expect(await run(JOBS.renewal('a', 'not-the-token', 60_000))).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const [second] = await claim(1);
    expect(second).toMatchObject({ id: 'a', attempts: 2 });
    expect(second.claim_token).not.toBe(first.claim_token);
    // The first worker's claim is gone: its renewal and its end change nothing.
    expect(await run(JOBS.renewal('a', first.claim_token, 60_000))).toBe(0);
    expect(await run(JOBS.end('a', first.claim_token, { set: `status = 'done'` }))).toBe(0);
    expect(await run(JOBS.renewal('a', second.claim_token, 60_000))).toBe(1);
    expect(await run(JOBS.end('a', second.claim_token, { set: `status = 'done', outcome = $3`, params: ['ok'] }))).toBe(1);
    expect(await row('a')).toEqual({ status: 'done', attempts: 2, claim_token: null, leased: null });
  });

  it('gives back with a back-off, and reclaim frees running leases at once', async () => {
    await queue('a', 'b');
    const [a, b] = await claim(2);
    await run(JOBS.end(a.id, a.claim_token, { set: `status = 'queued', available_at = now() + interval '1 hour'` }));
    expect(await claim(5)).toEqual([]);
    expect(await JOBS.reclaim(db)).toBe(1);
    expect((await claim(5)).map((r) => [r.id, r.attempts])).toEqual([['b', 2]]);
    expect(await run(JOBS.renewal(b.id, b.claim_token, 1_000))).toBe(0);
  });

  it('TaskLoop runs what NOTIFY announces, at most `concurrency` at once, and aborts tasks at stop', async () => {
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const loop = new TaskLoop(
      { name: 'LeasedWorkTest', concurrency: 2, pollIntervalMs: 60_000, db, channel: CHANNEL },
      async (room) =>
        (await claim(room)).map((item): ClaimedTask => async (signal) => {
          started.push(item.id);
          most = Math.max(most, ++running);
          await new Promise<void>((resolve) => {
            release.push(resolve);
            signal.addEventListener('abort', () => resolve());
          });
          running--;
          if (!signal.aborted) await run(JOBS.end(item.id, item.claim_token, { set: `status = 'done'` }));
          else await run(JOBS.end(item.id, item.claim_token, { set: `status = 'queued'` }));
        }),
    );
    await loop.start();
    try {
      // Queued after the loop went to sleep for a minute: only the NOTIFY can wake it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await db.transaction(async (query) => {
        await query(`INSERT INTO lw.jobs (id) VALUES ('a'), ('b'), ('c')`);
        await query(`SELECT pg_notify('${CHANNEL}', '')`);
      });
      await waitFor(() => started.length === 2);
      expect(started).toEqual(['a', 'b']);
      // A slot frees up: the full claim said more may wait, so the loop claims again without a poll.
      release.shift()!();
      await waitFor(() => started.length === 3);
      expect(most).toBe(2);
    } finally {
      await loop.stop();
    }
    expect(running).toBe(0);
    expect((await db.query<{ id: string; status: string }>(`SELECT id, status FROM lw.jobs ORDER BY id`))).toEqual([
      { id: 'a', status: 'done' },
      { id: 'b', status: 'queued' },
      { id: 'c', status: 'queued' },
    ]);
  });

  it('TaskLoop.wakeAt claims a retry when it falls due, long before the poll', async () => {
    const started: string[] = [];
    const loop = new TaskLoop(
      { name: 'LeasedWorkTest', concurrency: 2, pollIntervalMs: 60_000, db, channel: CHANNEL },
      async (room) =>
        (await claim(room)).map((item): ClaimedTask => async () => {
          started.push(item.id);
          await run(JOBS.end(item.id, item.claim_token, { set: `status = 'done'` }));
        }),
    );
    // Due in 300 ms, with no NOTIFY: before wakeAt only the minute-long poll would find it.
    await db.query(`INSERT INTO lw.jobs (id, available_at) VALUES ('later', now() + interval '300 milliseconds')`);
    await loop.start();
    try {
      loop.wakeAt(Date.now() + 300);
      await waitFor(() => started.length === 1, { timeoutMs: 10_000, what: 'the retry claimed at its due time' });
      expect(started).toEqual(['later']);
    } finally {
      await loop.stop();
    }
  });

  it('TaskLoop: a task that freed its slot (it waits on a remote server) runs on while its slot takes more work', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `w${String(i).padStart(3, '0')}`);
    await queue(...ids);
    const waiting = new Set<string>();
    let holding = 0;
    let mostHolding = 0;
    let answer!: () => void;
    // The "backend" answers every job at once, and only once all 200 wait on it: in waves of 8 it never would.
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const loop = new TaskLoop(
      { name: 'LeasedWorkTest', concurrency: 8, pollIntervalMs: 60_000, db, channel: CHANNEL },
      async (room) =>
        (await claim(room)).map((item): ClaimedTask => async (_signal, freeSlot) => {
          mostHolding = Math.max(mostHolding, ++holding);
          await new Promise((resolve) => setImmediate(resolve)); // the submit
          holding--;
          freeSlot();
          waiting.add(item.id);
          if (waiting.size === ids.length) answer();
          await answered;
          await run(JOBS.end(item.id, item.claim_token, { set: `status = 'done'` }));
        }),
    );
    await loop.start();
    try {
      await waitFor(() => waiting.size === ids.length, { timeoutMs: 30_000 });
      await waitFor(async () => (await db.query(`SELECT 1 FROM lw.jobs WHERE status <> 'done'`)).length === 0);
      expect(mostHolding).toBeLessThanOrEqual(8);
    } finally {
      await loop.stop();
    }
  });
});
