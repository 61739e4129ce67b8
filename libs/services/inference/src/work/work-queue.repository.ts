import { Inject, Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@genasset/contracts';
import { driverTransactionalClient, InjectOutbox, Outbox, type SqlClient } from '@genasset/messaging';
import { DATABASE_CONNECTION, LeaseTable, prepared, type DatabaseConnection, type Statement } from '@genasset/persistence';
import { INFERENCE_SCHEMA } from '../inference.schema';

/** The transaction event handlers get as `ctx.tx`: raw SQL on the driver (consumerTransactions 'driver', inference.module.ts). */
export type InferenceTx = SqlClient;

/** NOTIFY channel: new work was queued (payload empty): idle workers claim at once instead of at their next poll. */
export const WORK_CHANNEL = 'inference_work';
/** NOTIFY channel: a job was canceled (payload: its id): the worker running it stops. */
export const CANCEL_CHANNEL = 'inference_cancel';

export type WorkStatus = 'queued' | 'running' | 'done' | 'failed' | 'canceled' | 'ignored';

export interface NewWorkItem {
  jobId: string;
  jobType: string;
  mode: string;
  teamId: string;
  projectId: string;
  authorId?: string;
  modelId?: string;
  input: Record<string, unknown>;
}

/**
 * Work a backend runs asynchronously, as stored with the item: the intent (`submission`, written
 * before submitting) and, once the backend accepted it, its `handle` (ComfyUI prompt_id).
 */
export interface StoredBackendTask {
  backend: string;
  submission: string;
  handle?: string;
}

/** A claimed item: the claim token proves this worker still holds it. */
export interface ClaimedItem extends NewWorkItem {
  attempts: number;
  claimToken: string;
  /** Set when an earlier run of the job submitted it (or meant to) to a backend: resume it, never submit again. */
  backendTask?: StoredBackendTask;
}

interface ClaimedRow {
  job_id: string;
  job_type: string;
  mode: string;
  team_id: string;
  project_id: string;
  author_id: string | null;
  model_id: string | null;
  input: Record<string, unknown> | string;
  attempts: number;
  claim_token: string;
  backend: string | null;
  backend_submission: string | null;
  backend_handle: string | null;
}

/** The queue's leased work (libs/persistence LeaseTable): a fresh claim token per claim. */
const WORK = LeaseTable.statusQueue('inference.work_items', { column: 'claim_token', token: 'generated' }, 'available_at, job_id');

const CLAIMED_COLUMNS = `job_id, job_type, mode, team_id, project_id, author_id, model_id, input, attempts, claim_token,
                 backend, backend_submission, backend_handle`;

/** The backend handle's assignments (a statement while the claim is held). */
const HANDLE_SET = `backend_handle = $3, backend_submitted_at = now(), lease_until = now() + $4::float8 * interval '1 millisecond'`;
const ENDING_SET = 'status = $3, last_error = $4';

// The statements every job runs, parsed and planned once per session: the claim (its text is the
// same for any limit), and the guards of the writes with a report (Outbox.writeIf prepares a
// statement around a prepared guard), each a fixed text whatever the job.
prepared(WORK.claim(1, 0, CLAIMED_COLUMNS).sql);
prepared(WORK.renewal('', '', 0).sql);
prepared(WORK.whileHeld('', '', HANDLE_SET).sql);
prepared(WORK.end('', '', { set: ENDING_SET }).sql);

// One statement: the insert and, only when it inserted, the NOTIFY (delivered at commit).
const ENQUEUE_SQL = prepared(`WITH inserted AS (
         INSERT INTO inference.work_items (job_id, job_type, mode, team_id, project_id, author_id, model_id, input)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) ON CONFLICT (job_id) DO NOTHING
         RETURNING 1)
       SELECT (SELECT count(*)::int FROM inserted) AS inserted,
              (SELECT count(*)::int FROM (SELECT pg_notify('${WORK_CHANNEL}', '') WHERE EXISTS (SELECT 1 FROM inserted)) AS n) AS notified`);

/**
 * The work queue in the inference schema, the job path's data access (the
 * only file of the worker that holds the Prisma client or SQL). Items are
 * written with the inbox mark of their `job.work.requested` (so a crash never
 * loses one), claimed with FOR UPDATE SKIP LOCKED under a lease (so replicas
 * share the load and a dead worker's items are taken over), and changed while
 * running or finished only by the claim's holder, in one statement with the
 * job's report to the outbox (Outbox.writeIf: the claim's change is the guard
 * of the events, all or nothing).
 *
 * Its own statements run on the process's database connection, not through
 * the Prisma client: raw SQL needs no ORM, and a Prisma round trip costs the
 * worker ~0.2 ms more CPU than the driver's (so does the consumer's
 * transaction, inference.module.ts). Each of them changes rows only with
 * `RETURNING`, so `$executeRawUnsafe` (the number of rows returned, see
 * driverTransactionalClient) counts the rows changed.
 */
@Injectable()
export class WorkQueueRepository {
  /** Told the due time (epoch ms) of each retry queued here: the runner claims then, not at its next poll. */
  private readonly retryListeners = new Set<(dueAt: number) => void>();

  private readonly db: SqlClient;

  constructor(
    @Inject(DATABASE_CONNECTION) connection: DatabaseConnection,
    @InjectOutbox(INFERENCE_SCHEMA.schema) private readonly outbox: Outbox,
  ) {
    this.db = driverTransactionalClient(connection);
  }

  onRetryQueued(listener: (dueAt: number) => void): void {
    this.retryListeners.add(listener);
  }

  /** In the consumer's transaction: queues the job once (a redelivered request changes nothing) and wakes idle workers at commit. */
  async enqueue(tx: SqlClient, item: NewWorkItem): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<{ inserted: number }[]>(
      ENQUEUE_SQL,
      item.jobId,
      item.jobType,
      item.mode,
      item.teamId,
      item.projectId,
      item.authorId ?? null,
      item.modelId ?? null,
      JSON.stringify(item.input),
    );
    return Number(rows[0]?.inserted ?? 0) > 0;
  }

  /**
   * In the consumer's transaction: a queued or running item becomes canceled; its worker is told at
   * commit. Returns the item's stored backend task (undefined: nothing to cancel), so the caller can
   * stop the work on the backend even when no live worker holds the job (its worker died, or it
   * waits for a retry): the running worker's own cancel may never come.
   */
  async cancel(tx: SqlClient, jobId: string): Promise<{ backendTask?: StoredBackendTask } | undefined> {
    const rows = await tx.$queryRawUnsafe<Pick<ClaimedRow, 'backend' | 'backend_submission' | 'backend_handle'>[]>(
      `UPDATE inference.work_items SET status = 'canceled', claim_token = NULL, lease_until = NULL, updated_at = now()
        WHERE job_id = $1 AND status IN ('queued', 'running')
        RETURNING backend, backend_submission, backend_handle`,
      jobId,
    );
    if (rows.length === 0) return undefined;
    await tx.$executeRawUnsafe(`SELECT pg_notify('${CANCEL_CHANNEL}', $1)`, jobId);
    return { ...storedTask(rows[0]) };
  }

  /** Claims up to `limit` due items: queued ones whose time has come, and running ones whose lease expired (their worker died). */
  async claim(limit: number, leaseMs: number): Promise<ClaimedItem[]> {
    const { sql, params } = WORK.claim(limit, leaseMs, CLAIMED_COLUMNS);
    const rows = await this.db.$queryRawUnsafe<ClaimedRow[]>(sql, ...params);
    return rows.map((r) => ({
      jobId: r.job_id,
      jobType: r.job_type,
      mode: r.mode,
      teamId: r.team_id,
      projectId: r.project_id,
      ...(r.author_id ? { authorId: r.author_id } : {}),
      ...(r.model_id ? { modelId: r.model_id } : {}),
      input: typeof r.input === 'string' ? (JSON.parse(r.input) as Record<string, unknown>) : r.input,
      attempts: Number(r.attempts),
      claimToken: r.claim_token,
      ...storedTask(r),
    }));
  }

  /**
   * Before submitting to a backend: records which backend and the submission id the work goes
   * under (the intent), so a worker that dies mid-submit leaves a trace to look the work up by.
   * False when the claim is gone.
   */
  async recordIntent(item: ClaimedItem, backend: string, submission: string): Promise<boolean> {
    const { sql, params } = WORK.whileHeld(
      item.jobId,
      item.claimToken,
      'backend = $3, backend_submission = $4, backend_handle = NULL, backend_report = NULL',
      [backend, submission],
    );
    return (await this.db.$executeRawUnsafe(sql, ...params)) > 0;
  }

  /**
   * The backend accepted the work: stores its handle and renews the lease, with `events` (the job's
   * progress report), in one statement guarded by the claim. False when the claim is gone (nothing written).
   */
  recordHandle(item: ClaimedItem, handle: string, leaseMs: number, events: EventEnvelope[]): Promise<boolean> {
    const guard = WORK.whileHeld(item.jobId, item.claimToken, HANDLE_SET, [handle, leaseMs]);
    return this.outbox.writeIf(this.db, guard, events);
  }

  /** Renews the lease; false when the claim is gone (canceled, or taken over after a missed lease). */
  async renew(item: ClaimedItem, leaseMs: number): Promise<boolean> {
    const { sql, params } = this.renewal(item, leaseMs);
    return (await this.db.$executeRawUnsafe(sql, ...params)) > 0;
  }

  /** Renews the lease with `events` (a progress report) in one statement; false when the claim is gone (nothing written). */
  renewReporting(item: ClaimedItem, leaseMs: number, events: EventEnvelope[]): Promise<boolean> {
    return this.outbox.writeIf(this.db, this.renewal(item, leaseMs), events);
  }

  /** Ends the claim with a final status, reporting nothing; false when this worker no longer holds it. */
  async finish(item: ClaimedItem, status: 'done' | 'failed' | 'ignored', lastError?: string): Promise<boolean> {
    const { sql, params } = this.ending(item, status, lastError);
    return (await this.db.$executeRawUnsafe(sql, ...params)) > 0;
  }

  /**
   * Ends the claim with a final status and writes `events` (the job's report) in one statement;
   * false when this worker no longer holds the claim (then nothing is written: nothing may be reported).
   */
  finishReporting(
    item: ClaimedItem,
    status: 'done' | 'failed' | 'ignored',
    lastError: string | undefined,
    events: EventEnvelope[],
  ): Promise<boolean> {
    return this.outbox.writeIf(this.db, this.ending(item, status, lastError), events);
  }

  /** The lease renewal as one statement returning a row only while the claim is held (a guard for Outbox.writeIf). */
  private renewal(item: ClaimedItem, leaseMs: number): Statement {
    return WORK.renewal(item.jobId, item.claimToken, leaseMs);
  }

  /** The end of the claim as one statement returning a row only while the claim is held (a guard for Outbox.writeIf). */
  private ending(item: ClaimedItem, status: 'done' | 'failed' | 'ignored', lastError?: string): Statement {
    return WORK.end(item.jobId, item.claimToken, { set: ENDING_SET, params: [status, lastError ?? null] });
  }

  /** A transient failure: queued again after `delayMs`. */
  async retryLater(item: ClaimedItem, delayMs: number, lastError: string): Promise<boolean> {
    const { sql, params } = WORK.end(item.jobId, item.claimToken, {
      set: `status = 'queued', last_error = $3, available_at = now() + $4::float8 * interval '1 millisecond'`,
      params: [lastError.slice(0, 2000), delayMs],
    });
    const queued = (await this.db.$executeRawUnsafe(sql, ...params)) > 0;
    if (queued) for (const listener of this.retryListeners) listener(Date.now() + delayMs);
    return queued;
  }

  /** Shutdown: gives the item back at once, without counting the interrupted run as an attempt. */
  async release(item: ClaimedItem): Promise<void> {
    const { sql, params } = WORK.end(item.jobId, item.claimToken, {
      set: `status = 'queued', attempts = greatest(0, attempts - 1), available_at = now()`,
    });
    await this.db.$executeRawUnsafe(sql, ...params);
  }

  async status(jobId: string): Promise<WorkStatus | undefined> {
    const rows = await this.db.$queryRawUnsafe<{ status: WorkStatus }[]>(
      `SELECT status FROM inference.work_items WHERE job_id = $1`,
      jobId,
    );
    return rows[0]?.status;
  }

  /** A job's status and backend task (what a backend callback is checked against). */
  async taskOf(jobId: string): Promise<({ status: WorkStatus } & { backendTask?: StoredBackendTask }) | undefined> {
    const rows = await this.db.$queryRawUnsafe<(Pick<ClaimedRow, 'backend' | 'backend_submission' | 'backend_handle'> & { status: WorkStatus })[]>(
      `SELECT status, backend, backend_submission, backend_handle FROM inference.work_items WHERE job_id = $1`,
      jobId,
    );
    return rows[0] ? { status: rows[0].status, ...storedTask(rows[0]) } : undefined;
  }

  /**
   * Keeps a backend's report about a job's task (a Cog prediction posted by callback) while the job
   * is open and still runs that task; a final report is never replaced. False when nothing changed.
   */
  async storeReport(jobId: string, backend: string, submission: string, report: Record<string, unknown>): Promise<boolean> {
    const changed = await this.db.$executeRawUnsafe(
      `UPDATE inference.work_items SET backend_report = $4::jsonb, updated_at = now()
        WHERE job_id = $1 AND backend = $2 AND backend_submission = $3 AND status IN ('queued', 'running')
          AND coalesce(backend_report->>'status', '') NOT IN ('succeeded', 'failed', 'canceled')
        RETURNING 1`,
      jobId,
      backend,
      submission,
      JSON.stringify(report),
    );
    return changed > 0;
  }

  /** The last report stored for the job's task under `submission`, if any. */
  async reportOf(jobId: string, submission: string): Promise<Record<string, unknown> | undefined> {
    const rows = await this.db.$queryRawUnsafe<{ report: Record<string, unknown> | string | null }[]>(
      `SELECT backend_report AS report FROM inference.work_items WHERE job_id = $1 AND backend_submission = $2`,
      jobId,
      submission,
    );
    const report = rows[0]?.report;
    return typeof report === 'string' ? (JSON.parse(report) as Record<string, unknown>) : (report ?? undefined);
  }

  /** Deletes finished items last changed more than `olderThanMs` ago; returns how many. */
  async purge(olderThanMs: number): Promise<number> {
    const rows = await this.db.$queryRawUnsafe<{ purged: number }[]>(
      `WITH purged AS (
         DELETE FROM inference.work_items
          WHERE status IN ('done', 'failed', 'canceled', 'ignored') AND updated_at < now() - make_interval(secs => $1::double precision / 1000)
         RETURNING 1)
       SELECT count(*)::int AS purged FROM purged`,
      olderThanMs,
    );
    return Number(rows[0]?.purged ?? 0);
  }
}

/** Ends the lease of every running item now (LeaseTable.reclaim: only where no other worker of this database lives). */
export function reclaimWorkLeases(db: Pick<DatabaseConnection, 'query'>): Promise<number> {
  return WORK.reclaim(db);
}

/** The backend task columns of a row, when an earlier run recorded one. */
function storedTask(r: Pick<ClaimedRow, 'backend' | 'backend_submission' | 'backend_handle'>): { backendTask?: StoredBackendTask } {
  if (!r.backend || !r.backend_submission) return {};
  return {
    backendTask: { backend: r.backend, submission: r.backend_submission, ...(r.backend_handle ? { handle: r.backend_handle } : {}) },
  };
}
