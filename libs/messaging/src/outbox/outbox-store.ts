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
 * The oldest transaction still running that could be writing outbox rows here:
 * the snapshot's in-progress xids, less those PostgreSQL shows running in
 * another database (xids are server-wide, so a long transaction of another
 * service's database on the same server held every relay back; tests share one
 * server too). An xid not found running (it just ended, or its backend has no
 * database) still counts: it may be ours. `backend_xid` and `datid` are
 * readable without pg_read_all_stats. The snapshot's xmax when nothing counts.
 * pg_stat_get_activity rather than the pg_stat_activity view: the view's joins
 * cost ~0.15 ms more planning on every read.
 */
const HORIZON = `SELECT coalesce(
           (SELECT min(x.xid) FROM pg_snapshot_xip(s.snap) AS x(xid)
             WHERE NOT EXISTS (SELECT 1 FROM pg_stat_get_activity(NULL) AS a
                                WHERE a.backend_xid = x.xid::xid
                                  AND a.datid <> (SELECT d.oid FROM pg_database AS d
                                                   WHERE d.datname = current_database()))),
           pg_snapshot_xmax(s.snap)) AS xmin
      FROM (SELECT pg_current_snapshot() AS snap) AS s`;

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
  /** The locked read's text by batch size (one size per relay in practice). */
  private readonly nextSql = new Map<number, string>();

  constructor(readonly schema: string) {
    this.table = `${schemaIdent(schema)}.outbox_events`;
    this.lockKey = `outbox:${schema}`;
    this.peekSql = prepared(
      `WITH horizon AS MATERIALIZED (${HORIZON})
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
   * every still-running one of this database (HORIZON): a concurrent writer that took a lower seq but has
   * not committed yet must not be overtaken. `heldBack` says whether committed
   * rows were left out by that rule: they become eligible when the older
   * transaction ends, which sends no NOTIFY if it wrote no outbox rows, so the
   * relay must look again soon. Otherwise nothing is waiting and the relay can
   * sleep until the next NOTIFY. (Only checked when the batch is not full: a
   * full one is read again at once anyway, and the check scans the rows.)
   */
  async next(client: SqlClient, limit: number): Promise<{ rows: OutboxRow[]; heldBack: boolean }> {
    const n = Math.max(1, Math.floor(limit));
    const rows = await client.$queryRawUnsafe<
      {
        seq: string | null;
        id: string;
        topic: string;
        key: string;
        value: string;
        held_back: boolean;
      }[]
    >(
      this.nextText(n),
    );
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

  /** The locked read's text for batches of `n` (prepared: one text per size). */
  private nextText(n: number): string {
    let sql = this.nextSql.get(n);
    if (sql === undefined) {
      // ORDER BY the bigint seq, not its text: "10" sorts before "2". One row
      // of NULLs (and held_back) when no row is ready.
      sql = prepared(`WITH horizon AS MATERIALIZED (${HORIZON}),
       ready AS (
         SELECT o.seq, o.id, o.topic, o.key, o.envelope::text AS value
           FROM ${this.table} AS o
          WHERE o.txid < (SELECT xmin FROM horizon)
          ORDER BY o.seq
          LIMIT ${n}
       ),
       held AS (
         SELECT (SELECT count(*) FROM ready) < ${n}
                AND EXISTS (SELECT 1 FROM ${this.table} AS o WHERE o.txid >= (SELECT xmin FROM horizon)) AS held_back
       )
       SELECT r.seq::text AS seq, r.id, r.topic, r.key, r.value, held.held_back
         FROM held LEFT JOIN ready AS r ON true
        ORDER BY r.seq`);
      this.nextSql.set(n, sql);
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
