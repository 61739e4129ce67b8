import { prefixedId } from '@genasset/contracts';
import { waitFor, type ServiceHarness } from '@genasset/testing';

/** A row of webhooks.webhook_deliveries as the database holds it. */
export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  source_event_id: string;
  type: string;
  status: string;
  payload: Record<string, unknown>;
  attempt_count: number;
  next_attempt_at: Date | null;
};

/** Reads delivery records straight from the database (what intake wrote, whatever the API shows). */
export function deliveryRows(harness: () => ServiceHarness) {
  const rowsOf = (sourceEventId: string) =>
    harness().db.query<DeliveryRow>(
      'SELECT * FROM webhooks.webhook_deliveries WHERE source_event_id = $1 ORDER BY endpoint_id',
      [sourceEventId],
    );
  return {
    rowsOf,
    /** Waits until a fact's deliveries exist. One statement writes all of a fact's deliveries: once one is there, all are. */
    deliveriesFor: (sourceEventId: string, count = 1) =>
      waitFor(
        async () => {
          const rows = await rowsOf(sourceEventId);
          return rows.length >= count ? rows : undefined;
        },
        { timeoutMs: 30_000, what: `${count} deliveries of ${sourceEventId}` },
      ),
  };
}

/** A delivery written straight into the log: any status, type and creation time. */
export interface LoggedDelivery {
  id?: string;
  status: 'created' | 'retrying' | 'success' | 'failed';
  type?: string;
  createdAt: Date;
  attemptCount?: number;
  /** A resend of this first delivery: the body carries its id. */
  resendOf?: string;
  /** When a pending delivery is due; default in an hour. */
  dueAt?: Date;
}

/**
 * Writes deliveries into an endpoint's log in one statement, as the intake and workers would
 * have left them; the body is `{ id, type, data }` with the record's id. Pending ones are due
 * in an hour unless `dueAt` says otherwise, so no worker attempts them while a test looks (the
 * workers' poll finds those due). Returns their ids, in input order.
 */
export async function logDeliveries(
  harness: ServiceHarness,
  endpointId: string,
  deliveries: readonly LoggedDelivery[],
): Promise<string[]> {
  const rows = deliveries.map((d) => {
    const id = d.id ?? prefixedId('whevent');
    const type = d.type ?? 'generation.completed';
    const pending = d.status === 'created' || d.status === 'retrying';
    return {
      id,
      endpoint_id: endpointId,
      source_event_id: prefixedId('evt'),
      type,
      payload: JSON.stringify({
        id: d.resendOf ?? id,
        type,
        data: { jobId: prefixedId('job'), jobType: 'inference' },
      }),
      status: d.status,
      attempt_count: d.attemptCount ?? (d.status === 'failed' ? 3 : d.status === 'created' ? 0 : 1),
      created_at: d.createdAt.toISOString(),
      next_attempt_at: pending ? (d.dueAt ?? new Date(Date.now() + 3_600_000)).toISOString() : null,
      resend_of: d.resendOf ?? null,
    };
  });
  await harness.db.query(
    `INSERT INTO webhooks.webhook_deliveries
       (id, endpoint_id, source_event_id, type, payload, status, attempt_count, created_at, updated_at, next_attempt_at, resend_of)
     SELECT id, endpoint_id, source_event_id, type, payload::json, status, attempt_count, created_at, created_at, next_attempt_at, resend_of
       FROM json_to_recordset($1::json)
         AS r(id text, endpoint_id text, source_event_id text, type text, payload text, status text,
              attempt_count int, created_at timestamptz, next_attempt_at timestamptz, resend_of text)`,
    [JSON.stringify(rows)],
  );
  return rows.map((r) => r.id);
}
