import { Injectable } from '@nestjs/common';
import type { SqlClient } from '@genasset/messaging';
import { prepared } from '@genasset/persistence';
import { DELIVERIES_CHANNEL } from '../deliveries/delivery-wakeup';
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
  /** The body's JSON text (eventBody), stored verbatim: the bytes the workers send. */
  payload: string;
  /** traceparent of the consuming span (tracing on). */
  traceContext?: string;
  /** Written leased to this process's worker for this long (handed over after commit). */
  leaseMs?: number;
}

const schema = `"${WEBHOOK_SCHEMA.schema}"`;

// Rows travel as one JSON array: one statement per batch whatever its size,
// and the same on every driver (pg and PGlite).
const MATCH_SQL = prepared(`
  SELECT f.i AS event, e.id AS "endpointId", e.url, e.secret_ciphertext AS "secretCiphertext"
    FROM jsonb_to_recordset($1::jsonb) AS f(i int, owner_type text, owner_id text, type text)
    JOIN ${schema}.webhook_endpoints e
      ON e.owner_type = f.owner_type AND e.owner_id = f.owner_id
     AND e.enabled
     AND (f.type = ANY (e.enabled_events) OR '*' = ANY (e.enabled_events))
   ORDER BY f.i, e.created_at, e.id`);

// Runs in the consumer's transaction after the inbox let these facts through:
// a fact seen again (redelivery after a crash between commit and offset
// commit, a rebalance overlap) never gets here, so no unique key on
// (endpoint, fact) is needed (migration 0005). Rows with a lease_ms are
// written leased to this process's worker; the others wake the workers with a
// NOTIFY, which is transactional: at commit, never for a rollback. Nothing
// comes back: the caller already holds every row it hands over, payload text
// included. The batch is json, not jsonb: a json field of json_to_recordset
// keeps its text as written, so each payload is stored exactly as eventBody's
// JSON, the bytes the workers send (delivery-body.ts).
const INSERT_SQL = prepared(`
  WITH written AS (
    INSERT INTO ${schema}.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at, trace_context, lease_until)
    SELECT d.id, d.endpoint_id, d.source_event_id, d.type, d.payload, 'created', now(), d.trace_context,
           now() + d.lease_ms * interval '1 millisecond'
      FROM json_to_recordset($1::json) AS d(id text, endpoint_id text, source_event_id text, type text, payload json, trace_context text, lease_ms int)
    RETURNING lease_until IS NULL AS queued
  )
  SELECT count(pg_notify($2, n::text)) AS notified FROM (SELECT count(*) AS n FROM written WHERE queued) c WHERE n > 0`);

/** Matches a batch of public events to endpoints and writes their delivery records: two statements, inside the handler's transaction. */
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

  /** Status `created`, due now (leased to this process's worker where `leaseMs` is set); wakes the delivery workers for the rest. */
  async insert(tx: SqlClient, deliveries: readonly NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await tx.$queryRawUnsafe(INSERT_SQL, deliveryRowsJson(deliveries), DELIVERIES_CHANNEL);
  }
}

/**
 * The batch as one JSON array, each payload spliced in as the JSON text it
 * already is. JSON.stringify would either escape it as a string (PostgreSQL
 * then unescapes and parses it again) or need the object it came from,
 * serialised a second time; the payload text is what the hand-off sends too.
 */
function deliveryRowsJson(deliveries: readonly NewDelivery[]): string {
  const rows = deliveries.map((d) => {
    const fields = JSON.stringify({
      id: d.id,
      endpoint_id: d.endpointId,
      source_event_id: d.sourceEventId,
      type: d.type,
      trace_context: d.traceContext,
      lease_ms: d.leaseMs,
    });
    // `fields` always has `id`, so it ends with `…}` after at least one member.
    return `${fields.slice(0, -1)},"payload":${d.payload}}`;
  });
  return `[${rows.join(',')}]`;
}
