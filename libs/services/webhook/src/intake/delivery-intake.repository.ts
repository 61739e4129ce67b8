import { Injectable } from '@nestjs/common';
import type { SqlClient } from '@genasset/messaging';
import { DELIVERIES_CHANNEL } from '../deliveries/delivery-wakeup';
import type { EventBody } from '../event-catalog';
import type { OwnerType } from '../owners/webhook-owner';
import { WEBHOOK_SCHEMA } from '../webhook.schema';

export interface EventTarget {
  /** Index of the event in the batch. */
  event: number;
  endpointId: string;
  /** Where and with which sealed secret the endpoint is sent to (for a hand-off to the local worker). */
  url: string;
  secretCiphertext: string;
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  sourceEventId: string;
  type: string;
  payload: EventBody;
  /** traceparent of the consuming span (tracing on). */
  traceContext?: string;
  /** Written leased to this process's worker for this long (handed over after commit). */
  leaseMs?: number;
}

/** A delivery written leased to this process's worker, as stored. */
export interface LeasedDelivery {
  id: string;
  endpointId: string;
  /** The stored JSON text (what the workers send). */
  payload: string;
  traceContext: string | null;
}

const schema = `"${WEBHOOK_SCHEMA.schema}"`;

// Rows travel as one JSON array: one statement per batch whatever its size,
// and the same on every driver (pg and PGlite).
const MATCH_SQL = `
  SELECT f.i AS event, e.id AS "endpointId", e.url, e.secret_ciphertext AS "secretCiphertext"
    FROM jsonb_to_recordset($1::jsonb) AS f(i int, owner_type text, owner_id text, type text)
    JOIN ${schema}.webhook_endpoints e
      ON e.owner_type = f.owner_type AND e.owner_id = f.owner_id
     AND e.enabled
     AND (f.type = ANY (e.enabled_events) OR '*' = ANY (e.enabled_events))
   ORDER BY f.i, e.created_at, e.id`;

// Runs in the consumer's transaction after the inbox let these facts through:
// a fact seen again (redelivery after a crash between commit and offset
// commit, a rebalance overlap) never gets here, so no unique key on
// (endpoint, fact) is needed (migration 0005). Rows with a lease_ms are
// written leased to this process's worker and come back as stored (the
// payload as its JSON text, as a claim reads it); the others wake the workers with a NOTIFY, which is transactional: at commit,
// never for a rollback. The join keeps one row even when none came back, so
// the NOTIFY is always evaluated. The batch is json, not jsonb: a json field
// of json_to_recordset keeps its text as written, so each payload is stored
// in eventBody's key order, the bytes the workers send (delivery-body.ts).
const INSERT_SQL = `
  WITH written AS (
    INSERT INTO ${schema}.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at, trace_context, lease_until)
    SELECT d.id, d.endpoint_id, d.source_event_id, d.type, d.payload, 'created', now(), d.trace_context,
           now() + d.lease_ms * interval '1 millisecond'
      FROM json_to_recordset($1::json) AS d(id text, endpoint_id text, source_event_id text, type text, payload json, trace_context text, lease_ms int)
    RETURNING id, endpoint_id, payload, trace_context, lease_until IS NOT NULL AS leased
  ), notified AS (
    SELECT count(pg_notify($2, n::text)) AS n FROM (SELECT count(*) AS n FROM written WHERE NOT leased) c WHERE n > 0
  )
  SELECT w.id, w.endpoint_id AS "endpointId", w.payload::text AS payload, w.trace_context AS "traceContext"
    FROM notified LEFT JOIN written w ON w.leased`;

/** Writes delivery records for a batch of public events with two statements, inside the handler's transaction. */
@Injectable()
export class DeliveryIntakeRepository {
  /** Enabled endpoints of each event's owner subscribed to its type or to `*`. Paused endpoints match nothing. */
  async matchEndpoints(
    tx: SqlClient,
    events: readonly { ownerType: OwnerType; ownerId: string; type: string }[],
  ): Promise<EventTarget[]> {
    const rows = events.map((e, i) => ({ i, owner_type: e.ownerType, owner_id: e.ownerId, type: e.type }));
    return tx.$queryRawUnsafe<EventTarget[]>(MATCH_SQL, JSON.stringify(rows));
  }

  /** Status `created`, due now; wakes the delivery workers for the unleased. Returns the leased ones as stored. */
  async insert(tx: SqlClient, deliveries: readonly NewDelivery[]): Promise<LeasedDelivery[]> {
    if (deliveries.length === 0) return [];
    const rows = deliveries.map((d) => ({
      id: d.id,
      endpoint_id: d.endpointId,
      source_event_id: d.sourceEventId,
      type: d.type,
      payload: d.payload,
      trace_context: d.traceContext,
      lease_ms: d.leaseMs,
    }));
    const written = await tx.$queryRawUnsafe<(LeasedDelivery | { id: null })[]>(
      INSERT_SQL,
      JSON.stringify(rows),
      DELIVERIES_CHANNEL,
    );
    return written.filter((row): row is LeasedDelivery => row.id !== null);
  }
}
