import {
  LeaseTable,
  prepared,
  type DatabaseConnection,
  type SessionSettings,
  type StatementRunner,
} from '@genasset/persistence';
import type { AttemptResult } from './attempt-outcome';
import { nextDeliveryState, type RetrySchedule } from './retry-policy';

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  /** The payload column's JSON text, as stored (deliveryBody). */
  payload: string;
  /**
   * The `id` in the body when it is not the delivery's own: a resend carries the body of the
   * event's first delivery (its `resend_of`). Absent for a first delivery.
   */
  eventId?: string;
  /** Attempts made before this one. */
  attemptCount: number;
  url: string;
  secretCiphertext: string;
  /** traceparent stored at intake: the attempt's span continues that trace. */
  traceContext?: string | null;
  /**
   * This process's clock (ms) just before the statement that leased it was
   * sent. Lease checks use this clock only, so a clock difference with the
   * database cannot make every lease look lapsed.
   */
  leasedAt: number;
}

/** An enabled endpoint's URL and sealed secret as stored now. */
export interface EndpointTarget {
  url: string;
  secretCiphertext: string;
}

export interface ClaimResult {
  deliveries: ClaimedDelivery[];
  /** More deliveries were due than claimed (caps, batch size): claim again when there is room. */
  moreDue: boolean;
}

export interface ClaimRequest {
  /** Most deliveries to claim. */
  limit: number;
  /** Per-endpoint cap of attempts in flight in this process. */
  endpointConcurrency: number;
  /** Endpoints with attempts in flight here, and how many more each may take. */
  busy: ReadonlyMap<string, number>;
  leaseMs: number;
}

const S = 'webhooks';
const PENDING = `('created', 'retrying')`;

/**
 * The deliveries' leased work (libs/persistence LeaseTable): the lease alone marks a claim (no
 * holder column: claims are checked against this process's clock, `leasedAt`), and a pending
 * delivery stays pending while leased. CLAIM_SQL below is the claim of this table (per-endpoint
 * caps, the endpoint's URL and secret joined), RECORD_SQL its end; releases and reclaims are the
 * mechanism's.
 */
const DELIVERIES = new LeaseTable({
  table: `${S}.webhook_deliveries`,
  key: 'id',
  held: `status IN ${PENDING}`,
  lapsed: 'NULL',
});

/**
 * Planner settings pinned for these statements: walk the due index in order and look rows up by key,
 * whatever the statistics say. After a burst the planner may believe few deliveries are due and fetch
 * and sort them all on every claim, or scan the table to join a batch of ids.
 */
const ORDERED_INDEX_PLAN: SessionSettings = {
  enable_seqscan: 'off',
  enable_bitmapscan: 'off',
  enable_hashjoin: 'off',
  enable_mergejoin: 'off',
};

/**
 * Leases a batch: due deliveries of enabled endpoints, oldest due first ($2 scanned, locked with SKIP
 * LOCKED), at most $5 per endpoint (or what `busy` leaves an endpoint: $3/$4), none of the saturated
 * endpoints ($1), $6 in all, for $7 ms. Returns one row even when nothing was claimed, carrying how
 * many were due (`candidates`).
 */
const CLAIM_SQL = `
  WITH candidates AS (
    SELECT d.id, d.endpoint_id, d.next_attempt_at
      FROM ${S}.webhook_deliveries d
      JOIN ${S}.webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.status IN ${PENDING}
       AND d.next_attempt_at <= now()
       AND (d.lease_until IS NULL OR d.lease_until < now())
       AND e.enabled
       AND d.endpoint_id <> ALL ($1::text[])
     ORDER BY d.next_attempt_at
     LIMIT $2
       FOR UPDATE OF d SKIP LOCKED
  ), ranked AS (
    SELECT c.id, c.endpoint_id, c.next_attempt_at,
           row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS n
      FROM candidates c
  ), chosen AS (
    SELECT r.id
      FROM ranked r
      LEFT JOIN unnest($3::text[], $4::int[]) AS busy(endpoint_id, free) ON busy.endpoint_id = r.endpoint_id
     WHERE r.n <= coalesce(busy.free, $5)
     ORDER BY r.next_attempt_at
     LIMIT $6
  ), claimed AS (
    UPDATE ${S}.webhook_deliveries d
       SET lease_until = now() + $7 * interval '1 millisecond'
      FROM chosen, ${S}.webhook_endpoints e
     WHERE d.id = chosen.id AND e.id = d.endpoint_id
    RETURNING d.id, d.endpoint_id, d.payload::text AS payload, d.attempt_count, e.url, e.secret_ciphertext, d.trace_context,
              d.resend_of
  )
  SELECT claimed.*, n.candidates
    FROM (SELECT count(*)::int AS candidates FROM candidates) n
    LEFT JOIN claimed ON true`;

/** The enabled endpoints among $1, with their URL and sealed secret now (DeliveryWorker checks waited deliveries). */
const CURRENT_TARGETS_SQL = prepared(`
  SELECT id, url, secret_ciphertext FROM ${S}.webhook_endpoints WHERE id = ANY ($1::text[]) AND enabled`);

/**
 * Records a batch of outcomes ($1: one JSON array of AttemptResults, each with `decisions`: what the
 * retry policy makes of the outcome as attempt number `attempt`, `attempt + 1`, … until a final
 * state): each delivery's state with the attempt appended to its `attempts`, and the endpoint
 * counters, in one statement. The statement decides nothing: it stores the decision for the
 * attempt's real number, the stored count + 1, which is `attempt` unless another attempt was
 * recorded since the claim (a duplicate sent after a lease ran out); a final status stays.
 * Returns the next attempt time of every delivery left `retrying`.
 */
/** Which of a result's decisions is its attempt's: the stored count + 1 - `attempt`, within the list. */
const DECISION_INDEX = `greatest(0, least(d.attempt_count + 1 - r.attempt, json_array_length(r.decisions) - 1))`;

const RECORD_SQL = prepared(`
  WITH r AS (
    SELECT *
      FROM json_to_recordset($1::json)
        AS r("deliveryId" text, "responseStatusCode" int, "sentAt" text, "durationMs" int, error text, ok boolean,
             attempt int, decisions json)
  ), upd AS (
    UPDATE ${S}.webhook_deliveries d
       SET status = CASE WHEN d.status NOT IN ${PENDING} THEN d.status
                         ELSE r.decisions -> ${DECISION_INDEX} ->> 'status' END,
           next_attempt_at = CASE WHEN d.status NOT IN ${PENDING} THEN NULL
                                  ELSE (r.decisions -> ${DECISION_INDEX} ->> 'at')::timestamptz END,
           attempt_count = d.attempt_count + 1,
           attempts = d.attempts || jsonb_build_object('responseStatusCode', r."responseStatusCode", 'sentAt', r."sentAt",
                                                       'durationMs', r."durationMs", 'error', r.error),
           lease_until = NULL,
           sent_at = r."sentAt"::timestamptz,
           updated_at = now()
      FROM r
     WHERE d.id = r."deliveryId"
    RETURNING d.endpoint_id, d.status, d.next_attempt_at, r.ok
  ), counters AS (
    UPDATE ${S}.webhook_endpoints e
       SET nb_total_calls = e.nb_total_calls + c.total,
           nb_failed_calls = e.nb_failed_calls + c.failed
      FROM (SELECT endpoint_id, count(*)::int AS total, (count(*) FILTER (WHERE NOT ok))::int AS failed
              FROM upd
             GROUP BY endpoint_id) c
     WHERE e.id = c.endpoint_id
  )
  SELECT next_attempt_at FROM upd WHERE status = 'retrying'`);

/**
 * Set-based SQL for the delivery worker: one statement claims a batch, one
 * records a batch of outcomes, each atomic on its own and one round trip, on
 * sessions of the worker's own that pin the plan (ORDERED_INDEX_PLAN). Raw SQL
 * rather than Prisma: these run thousands of times a second, and must still
 * run while the app shuts down, after the Prisma clients have disconnected.
 */
export class DeliveryRepository {
  private readonly statements: StatementRunner;

  constructor(db: DatabaseConnection) {
    // Claims, records, releases and checks may overlap: one session each.
    this.statements = db.withSettings(ORDERED_INDEX_PLAN, { poolSize: 4 });
  }

  /** Closes the worker's sessions (after its last record). */
  async close(): Promise<void> {
    await this.statements.close();
  }

  /**
   * Leases up to `limit` due deliveries of enabled endpoints, oldest due
   * first, at most `free` per endpoint. `FOR UPDATE SKIP LOCKED` lets
   * replicas claim side by side without waiting on or taking each other's
   * rows; the lease keeps a claimed row out of every claim (this process's
   * included) until it is recorded or the lease passes (crash).
   * Deliveries of paused endpoints are left pending: attempted after resume.
   */
  async claim(request: ClaimRequest): Promise<ClaimResult> {
    const saturated: string[] = [];
    const busyIds: string[] = [];
    const busyFree: number[] = [];
    for (const [endpointId, free] of request.busy) {
      if (free <= 0) saturated.push(endpointId);
      else {
        busyIds.push(endpointId);
        busyFree.push(free);
      }
    }
    // Scan more candidates than wanted, so a few busy endpoints at the head of the queue cannot starve the rest.
    const scan = Math.min(request.limit * 2, 10_000);
    const leasedAt = Date.now();
    const rows = await this.statements.query<{
      id: string | null;
      endpoint_id: string;
      payload: string;
      attempt_count: number;
      url: string;
      secret_ciphertext: string;
      trace_context: string | null;
      resend_of: string | null;
      candidates: number;
    }>(CLAIM_SQL, [
      saturated,
      scan,
      busyIds,
      busyFree,
      request.endpointConcurrency,
      request.limit,
      request.leaseMs,
    ]);
    const deliveries = rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        endpointId: r.endpoint_id,
        payload: r.payload,
        attemptCount: r.attempt_count,
        url: r.url,
        secretCiphertext: r.secret_ciphertext,
        traceContext: r.trace_context,
        leasedAt,
        ...(r.resend_of === null ? {} : { eventId: r.resend_of }),
      }));
    const candidates = rows[0]?.candidates ?? 0;
    // Due deliveries may be left: held back by a cap (saturated endpoints were not even scanned), or beyond the window.
    return {
      deliveries,
      moreDue: saturated.length > 0 || candidates > deliveries.length || candidates >= scan,
    };
  }

  /**
   * Records a batch of attempts in one statement (one transaction): each
   * delivery's status, attempt count, next attempt and lease, with the attempt
   * appended to its `attempts`; both endpoint counters, aggregated per endpoint.
   * The state each attempt leads to is the retry policy's (nextDeliveryState);
   * the statement only stores it. A delivery deleted meanwhile (its endpoint
   * was deleted) is skipped with its attempt and counts; one already final (a
   * duplicate attempt after a lease expired) keeps its status.
   * Returns the next attempt time of each delivery left `retrying`.
   */
  async record(results: readonly AttemptResult[], schedule: RetrySchedule): Promise<Date[]> {
    if (results.length === 0) return [];
    // One JSON text for the batch (as the intake sends its rows), built natively; sentAt and the
    // decisions' times come out as ISO 8601 UTC text (Date#toJSON), which the attempt entry keeps as written.
    const rows = results.map((result) => ({
      deliveryId: result.deliveryId,
      responseStatusCode: result.responseStatusCode,
      sentAt: result.sentAt,
      durationMs: result.durationMs,
      error: result.error,
      ok: result.ok,
      attempt: result.attempt,
      decisions: decisionsFrom(schedule, result),
    }));
    const found = await this.statements.query<{ next_attempt_at: Date }>(RECORD_SQL, [JSON.stringify(rows)]);
    return found.map((r) => r.next_attempt_at);
  }

  /** The endpoints among `endpointIds` that are enabled now, with their URL and sealed secret; deleted or paused ones are absent. */
  async currentTargets(endpointIds: readonly string[]): Promise<Map<string, EndpointTarget>> {
    const rows = await this.statements.query<{ id: string; url: string; secret_ciphertext: string }>(
      CURRENT_TARGETS_SQL,
      [endpointIds],
    );
    return new Map(rows.map((r) => [r.id, { url: r.url, secretCiphertext: r.secret_ciphertext }]));
  }

  /** Gives claimed deliveries back without recording an attempt (shutdown abandoned them mid-flight). */
  async release(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    const { sql, params } = DELIVERIES.releaseAll(deliveryIds);
    await this.statements.query(sql, params);
  }
}

/**
 * The policy's decision for `result` as attempt `attempt`, then as each later number until one is
 * final (one entry for a success; at most `maxAttempts` in all): the recording statement takes the
 * one of the attempt's real number, so a duplicate recorded late still counts against the limit.
 */
function decisionsFrom(schedule: RetrySchedule, result: AttemptResult): { status: string; at: Date | null }[] {
  const decisions: { status: string; at: Date | null }[] = [];
  for (let attempt = result.attempt; ; attempt++) {
    const next = nextDeliveryState(schedule, attempt, result);
    decisions.push({ status: next.status, at: next.nextAttemptAt });
    if (next.status !== 'retrying') return decisions;
  }
}

/**
 * Gives back every leased pending delivery now, as release does, so the workers claim them at once
 * instead of when the lease runs out. Only for a process that knows no other dispatcher of this
 * database is alive: an embedded one at start, before its workers claim (libs/runtime,
 * reclaimLeasesAtStart).
 */
export function reclaimDeliveryLeases(db: Pick<DatabaseConnection, 'query'>): Promise<number> {
  return DELIVERIES.reclaim(db);
}
