import type { DatabaseConnection } from '../database';

/** One SQL statement and its parameters, for whichever client runs it (Prisma, a transaction, a StatementRunner). */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * How one table holds leased work. Conditions and assignments are SQL over the
 * table's own columns, unqualified; they are written by the queue's code,
 * never from input.
 */
export interface LeaseTableSpec {
  /** Schema-qualified table, e.g. `inference.work_items`. */
  table: string;
  /** Its key column. */
  key: string;
  /** The lease's expiry column (default `lease_until`). */
  lease?: string;
  /**
   * The column naming a claim's holder, which every later change must match: a fresh token per
   * claim (`generated`) or the worker's id (`given`). Absent: the lease alone marks the claim.
   */
  holder?: { column: string; token: 'generated' | 'given' };
  /** A row that is claimed while its lease runs, e.g. `status = 'running'`. */
  held: string;
  /**
   * How `claim` picks: rows it may take (due, or held under a lease that ran out: its worker died),
   * oldest first by `order`. Absent when the queue claims with a statement of its own (webhook
   * deliveries: per-endpoint caps, the endpoint joined), leasing the rows the same way.
   */
  pick?: { claimable: string; order: string };
  /** What a claim assigns besides lease and holder, e.g. `status = 'running', attempts = attempts + 1`. */
  onClaim?: string;
  /** Assigned by every change (claim, renewal, end), e.g. `updated_at = now()`. */
  touch?: string;
  /** What `reclaim` writes into the lease so a claim takes the row at once (default `now() - interval '1 second'`). */
  lapsed?: string;
}

/** How a claim ends (finish, fail, retry later, give back): assignments over $3… (`params`). */
export interface LeaseEnd {
  set?: string;
  params?: unknown[];
  /** The lease column's new value (default NULL; a back-off time for queues that keep it, e.g. uploads). */
  lease?: string;
}

const millis = (n: number) => `now() + $${n}::float8 * interval '1 millisecond'`;

/**
 * The statements of leased work on one table, the one mechanism every
 * database work queue here uses (inference work items, asset downloads and
 * upload imports, webhook deliveries):
 *
 * - claim: a batch of claimable rows, oldest first, locked with FOR UPDATE SKIP LOCKED (replicas
 *   claim side by side without waiting on or taking each other's rows) and leased;
 * - renewal: extends the lease, only while the claim is held (whileHeld: any other change so guarded);
 * - end: finishes, fails, retries later or gives back, only while the claim is held;
 * - reclaim: ends every running lease, for a process that knows no other worker is alive.
 *
 * Renewal and end return one row only while the claim is held, so they also serve as the guard
 * of a transaction that must only commit while it is (Outbox.writeIf).
 */
export class LeaseTable {
  private readonly lease: string;
  private readonly claimSql: string;
  private readonly renewSql: string;
  private readonly guard: string;

  /**
   * A job queue of the usual shape (downloads, inference work items): `status` queued → running,
   * due by `available_at`, a running row whose `lease_until` passed claimable again, each claim
   * counted in `attempts`, `updated_at` touched by every change.
   */
  static statusQueue(table: string, holder: NonNullable<LeaseTableSpec['holder']>, order: string): LeaseTable {
    return new LeaseTable({
      table,
      key: 'job_id',
      holder,
      held: `status = 'running'`,
      pick: {
        claimable: `(status = 'queued' AND available_at <= now()) OR (status = 'running' AND lease_until < now())`,
        order,
      },
      onClaim: `status = 'running', attempts = attempts + 1`,
      touch: 'updated_at = now()',
    });
  }

  constructor(readonly spec: LeaseTableSpec) {
    const { table, key, holder, touch } = spec;
    this.lease = spec.lease ?? 'lease_until';
    const claimHolder = holder ? `, ${holder.column} = ${holder.token === 'generated' ? 'gen_random_uuid()::text' : '$3'}` : '';
    this.claimSql = spec.pick
      ? `UPDATE ${table}
          SET ${this.lease} = ${millis(2)}${claimHolder}${spec.onClaim ? `, ${spec.onClaim}` : ''}${touch ? `, ${touch}` : ''}
        WHERE ${key} IN (
          SELECT ${key} FROM ${table}
           WHERE ${spec.pick.claimable}
           ORDER BY ${spec.pick.order}
           LIMIT $1
           FOR UPDATE SKIP LOCKED)`
      : '';
    // Without a holder column (webhook deliveries) $2 is unused and must be null: the lease alone marks the claim.
    this.guard = `${key} = $1 AND ${holder ? `${holder.column} = $2` : '$2::text IS NULL'} AND ${spec.held}`;
    this.renewSql = `UPDATE ${table} SET ${this.lease} = ${millis(3)}${touch ? `, ${touch}` : ''}
        WHERE ${this.guard} RETURNING 1`;
  }

  /**
   * Claims up to `limit` rows for `leaseMs`, returning `returning` (columns of the claimed rows).
   * `holder`: the worker's id when the spec's holder token is `given`.
   */
  claim(limit: number, leaseMs: number, returning: string, holder?: string): Statement {
    if (!this.spec.pick) throw new Error(`${this.spec.table} is claimed by a statement of its own`);
    const params: unknown[] = [limit, leaseMs];
    if (this.spec.holder?.token === 'given') {
      if (holder === undefined) throw new Error(`claiming ${this.spec.table} needs the worker's id`);
      params.push(holder);
    }
    return { sql: `${this.claimSql}\n       RETURNING ${returning}`, params };
  }

  /** Extends the lease of a held claim by `leaseMs` from now; a row only while it is held. */
  renewal(key: string, holder: string | undefined, leaseMs: number): Statement {
    return { sql: this.renewSql, params: [key, holder ?? null, leaseMs] };
  }

  /**
   * Changes a held row without ending the claim (assignments over $3…, e.g. what the worker
   * recorded of its progress); a row only while it is held.
   */
  whileHeld(key: string, holder: string | undefined, set: string, params: unknown[] = []): Statement {
    const touch = this.spec.touch ? `, ${this.spec.touch}` : '';
    return {
      sql: `UPDATE ${this.spec.table} SET ${set}${touch} WHERE ${this.guard} RETURNING 1`,
      params: [key, holder ?? null, ...params],
    };
  }

  /** Ends a held claim (see LeaseEnd); a row only while it was held. */
  end(key: string, holder: string | undefined, change: LeaseEnd = {}): Statement {
    const { table, holder: holderColumn, touch } = this.spec;
    const assignments = [
      change.set,
      `${this.lease} = ${change.lease ?? 'NULL'}`,
      holderColumn ? `${holderColumn.column} = NULL` : undefined,
      touch,
    ].filter(Boolean);
    return {
      sql: `UPDATE ${table} SET ${assignments.join(', ')}
        WHERE ${this.guard} RETURNING 1`,
      params: [key, holder ?? null, ...(change.params ?? [])],
    };
  }

  /**
   * Gives back many claims at once without recording anything, for a table whose lease alone marks
   * the claim (no holder): rows still held return to the queue as they were.
   */
  releaseAll(keys: readonly string[]): Statement {
    if (this.spec.holder) throw new Error(`${this.spec.table}: claims with a holder are released one by one (end)`);
    return {
      sql: `UPDATE ${this.spec.table} SET ${this.lease} = NULL WHERE ${this.spec.key} = ANY ($1::text[]) AND ${this.spec.held}`,
      params: [[...keys]],
    };
  }

  /**
   * Ends the lease of every claimed row now, so a claim takes it again at once instead of when the
   * lease runs out. Only for a process that knows no other worker of this database is alive: an
   * embedded one at start, before its own workers claim (libs/runtime, reclaimLeasesAtStart).
   */
  async reclaim(db: Pick<DatabaseConnection, 'query'>): Promise<number> {
    const claimed = this.spec.holder ? ` AND ${this.spec.holder.column} IS NOT NULL` : '';
    const rows = await db.query(
      `UPDATE ${this.spec.table} SET ${this.lease} = ${this.spec.lapsed ?? `now() - interval '1 second'`}
        WHERE ${this.spec.held}${claimed} AND ${this.lease} > now() RETURNING 1`,
    );
    return rows.length;
  }
}
