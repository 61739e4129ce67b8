import { prepared } from '@genasset/persistence';
import type { OutboundMessage } from '../core/messages';
import { schemaIdent, type SqlClient } from '../core/sql-client';

export interface OutboxRow {
  seq: string;
  message: OutboundMessage;
}

export interface OutboxBacklog {
  /** Rows written and not yet published. */
  count: number;
  /** Age of the oldest unpublished row, 0 when empty. */
  oldestAgeMs: number;
}

/**
 * The oldest transaction still running that may hold a lower seq than rows
 * committed after it: rows of transactions at or past it are held back
 * (`o.txid < xmin` is the rule), so a later commit never overtakes an earlier
 * seq. Only transactions that write this outbox table count. An INSERT takes
 * its RowExclusiveLock on the table before it draws a seq, and keeps it until
 * the transaction ends, so the lock's holders (pg_locks, fast-path locks
 * included) are exactly the transactions that may hold a seq; any other
 * running transaction draws its seqs later, above every row committed now.
 * Counting every running transaction of the database, as this did before,
 * held the relay back behind unrelated work (another service's long consumer
 * transaction on the same database: ~one read in three on the job path), and
 * each held-back read waits for a re-read (OutboxRelay).
 *
 * Of the snapshot's in-progress xids, one counts unless it is found running in
 * a backend that holds no writing lock on the table (an xid not found running
 * ended after the snapshot, and may have been a writer). A writer whose xid is
 * not in the snapshot (none yet: `seq` is drawn before `txid`'s default; or
 * drawn after the snapshot) may already hold a seq below committed rows: then
 * nothing is ready until it is known (xmin 0). The snapshot is the
 * statement's; pg_locks and the activity are read after it, so a transaction
 * that took the lock later draws its seqs later. pg_stat_get_activity rather
 * than the pg_stat_activity view: the view's joins cost ~0.15 ms more
 * planning on every read. `backend_xid` and pg_locks are readable without
 * pg_read_all_stats.
 */
function horizonSql(table: string): string {
  return `WITH snap AS MATERIALIZED (SELECT pg_current_snapshot() AS s),
       writers AS MATERIALIZED (
         SELECT a.pid, a.backend_xid
           FROM pg_locks AS l
           JOIN pg_stat_get_activity(NULL) AS a ON a.pid = l.pid
          WHERE l.locktype = 'relation'
            AND l.relation = '${table}'::regclass
            AND l.database = (SELECT d.oid FROM pg_database AS d WHERE d.datname = current_database())
            AND l.granted
            AND l.mode NOT IN ('AccessShareLock', 'RowShareLock')
            AND l.pid <> pg_backend_pid()
       )
     SELECT CASE
              WHEN EXISTS (SELECT 1 FROM writers AS w, snap
                            WHERE w.backend_xid IS NULL
                               OR NOT EXISTS (SELECT 1 FROM pg_snapshot_xip(snap.s) AS x(xid)
                                               WHERE x.xid::xid = w.backend_xid))
                THEN '0'::xid8
              ELSE coalesce(
                (SELECT min(x.xid) FROM snap, pg_snapshot_xip(snap.s) AS x(xid)
                  WHERE NOT EXISTS (SELECT 1 FROM pg_stat_get_activity(NULL) AS a
                                     WHERE a.backend_xid = x.xid::xid
                                       AND a.pid NOT IN (SELECT w.pid FROM writers AS w))),
                (SELECT pg_snapshot_xmax(snap.s) FROM snap))
            END AS xmin`;
}

// 1869968498 = 'outr': a class id of our own, apart from the migrator's keys.
const TRY_LOCK_SQL = prepared('SELECT pg_try_advisory_xact_lock(1869968498, hashtext($1)) AS locked');

/**
 * The relay's SQL against one schema's outbox table. Its statements have a fixed
 * text per schema (and batch size) and run on every hop, most of them on the
 * driver (OutboxRelay's `query` and `transaction`): they are prepared
 * statements (libs/persistence `prepared`), parsed and planned once per
 * session. Planning was most of the peek's cost to PostgreSQL (0.35 ms a call
 * unprepared, 0.09 ms prepared), and a job's five hops peek ~6 times.
 */
export class OutboxStore {
  private readonly table: string;
  private readonly lockKey: string;
  private readonly peekSql: string;
  private readonly removeSql: string;
  /** The locked reads' texts by batch size and kind (one size per relay in practice). */
  private readonly nextSql = new Map<string, string>();

  private readonly horizon: string;

  constructor(readonly schema: string) {
    this.table = `${schemaIdent(schema)}.outbox_events`;
    this.horizon = horizonSql(this.table);
    this.lockKey = `outbox:${schema}`;
    this.peekSql = prepared(
      `WITH horizon AS MATERIALIZED (${this.horizon})
       SELECT EXISTS (SELECT 1 FROM ${this.table} AS o WHERE o.txid < (SELECT xmin FROM horizon)) AS ready,
              EXISTS (SELECT 1 FROM ${this.table} AS o WHERE o.txid >= (SELECT xmin FROM horizon)) AS held_back`,
    );
    this.removeSql = prepared(`DELETE FROM ${this.table} WHERE seq = ANY($1::bigint[])`);
  }

  /**
   * Takes the schema's relay lock for the current transaction, without waiting:
   * across replicas only one relay publishes a schema's outbox at a time, which
   * is what keeps per-key order (two relays would race each other's batches).
   * Read the rows in a later statement: its snapshot then sees everything the
   * previous holder committed before it let go of the lock.
   */
  async tryLock(tx: SqlClient): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<{ locked: boolean }[]>(TRY_LOCK_SQL, this.lockKey);
    return rows[0]?.locked === true;
  }

  /**
   * The oldest rows in seq order, limited to transactions that finished before
   * every still-running writer of this table (horizonSql): a concurrent writer
   * that took a lower seq but has not committed yet must not be overtaken.
   * `heldBack` says whether committed rows were left out by that rule: they
   * become eligible when the older writer ends, which sends no NOTIFY if it
   * rolls back, so the relay must look again soon. Otherwise nothing is waiting and the relay can
   * sleep until the next NOTIFY. (Only checked when the batch is not full: a
   * full one is read again at once anyway, and the check scans the rows.)
   */
  async next(client: SqlClient, limit: number): Promise<{ rows: OutboxRow[]; heldBack: boolean }> {
    return this.read(client, this.nextText(Math.max(1, Math.floor(limit)), false));
  }

  private async read(client: SqlClient, sql: string): Promise<{ rows: OutboxRow[]; heldBack: boolean }> {
    const rows = await client.$queryRawUnsafe<
      {
        seq: string | null;
        id: string;
        topic: string;
        key: string;
        value: string;
        held_back: boolean;
      }[]
    >(sql);
    const ready = rows.filter((r): r is typeof r & { seq: string } => r.seq !== null);
    return {
      heldBack: rows[0]?.held_back === true,
      rows: ready.map((r) => ({
        seq: r.seq,
        message: {
          id: r.id,
          seq: r.seq,
          topic: r.topic,
          key: r.key,
          value: r.value,
        },
      })),
    };
  }

  /**
   * `next`, deleting the rows it returns in the same statement: the relay's
   * locked read inside the transaction that publishes them. A failed publish
   * rolls the transaction back and the rows are there again; a published
   * batch is gone at commit. One round trip instead of a read and a DELETE.
   */
  async take(tx: SqlClient, limit: number): Promise<{ rows: OutboxRow[]; heldBack: boolean }> {
    return this.read(tx, this.nextText(Math.max(1, Math.floor(limit)), true));
  }

  /**
   * The locked read's text for batches of `n`, reading (`next`) or taking
   * (`take`) the rows. Prepared: one text per size and kind, a handful per
   * relay.
   */
  private nextText(n: number, remove: boolean): string {
    const key = `${n}:${remove}`;
    let sql = this.nextSql.get(key);
    if (sql === undefined) {
      // ORDER BY the bigint seq, not its text: "10" sorts before "2". One row
      // of NULLs (and held_back) when no row is ready. Every part of the
      // statement sees the same snapshot: held_back is not changed by the
      // DELETE (it looks at other rows).
      const rows = remove
        ? `ready AS (
         SELECT o.seq FROM ${this.table} AS o
          WHERE o.txid < (SELECT xmin FROM horizon)
          ORDER BY o.seq
          LIMIT ${n}
       ),
       picked AS (
         DELETE FROM ${this.table} AS o USING ready WHERE o.seq = ready.seq
         RETURNING o.seq, o.id, o.topic, o.key, o.envelope::text AS value
       )`
        : `picked AS (
         SELECT o.seq, o.id, o.topic, o.key, o.envelope::text AS value
           FROM ${this.table} AS o
          WHERE o.txid < (SELECT xmin FROM horizon)
          ORDER BY o.seq
          LIMIT ${n}
       )`;
      sql = prepared(`WITH horizon AS MATERIALIZED (${this.horizon}),
       ${rows},
       held AS (
         SELECT (SELECT count(*) FROM picked) < ${n}
                AND EXISTS (SELECT 1 FROM ${this.table} AS o WHERE o.txid >= (SELECT xmin FROM horizon)) AS held_back
       )
       SELECT r.seq::text AS seq, r.id, r.topic, r.key, r.value, held.held_back
         FROM held LEFT JOIN picked AS r ON true
        ORDER BY r.seq`);
      this.nextSql.set(key, sql);
    }
    return sql;
  }

  /**
   * Whether `next` would find rows now, and whether committed rows are held
   * back (as `next` reports them): one statement, no transaction, no lock.
   * Most reads of a quiet relay find nothing (the poll, a NOTIFY for rows an
   * earlier read already took), and this answers them in one round trip
   * instead of the locked read's four.
   */
  async peek(client: SqlClient): Promise<{ ready: boolean; heldBack: boolean }> {
    const rows = await client.$queryRawUnsafe<{ ready: boolean; held_back: boolean }[]>(this.peekSql);
    return { ready: rows[0]?.ready === true, heldBack: rows[0]?.held_back === true };
  }

  async remove(client: SqlClient, seqs: readonly string[]): Promise<void> {
    if (seqs.length === 0) return;
    await client.$executeRawUnsafe(this.removeSql, `{${seqs.join(',')}}`);
  }

  async backlog(client: SqlClient): Promise<OutboxBacklog> {
    const rows = await client.$queryRawUnsafe<{ count: number; age: number | null }[]>(
      `SELECT count(*)::int AS count,
              (EXTRACT(EPOCH FROM (now() - min(created_at))) * 1000)::float8 AS age
         FROM ${this.table}`,
    );
    return { count: rows[0]?.count ?? 0, oldestAgeMs: Math.max(0, Math.round(rows[0]?.age ?? 0)) };
  }
}
