import { Injectable } from '@nestjs/common';
import { DELIVERIES_CHANNEL } from '../deliveries/delivery-wakeup';
import type { OwnerType } from '../owners/webhook-owner';
import { WEBHOOK_SCHEMA } from '../webhook.schema';
import type { WebhookTx } from '../webhook.prisma';

export interface EventTarget {
  /** Index of the event in the batch. */
  event: number;
  endpointId: string;
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  sourceEventId: string;
  type: string;
  payload: object;
  /** traceparent of the consuming span (tracing on). */
  traceContext?: string;
}

const schema = `"${WEBHOOK_SCHEMA.schema}"`;

// Rows travel as one JSON array: one statement per batch whatever its size,
// and the same through every Prisma driver adapter (pg and PGlite).
const MATCH_SQL = `
  SELECT f.i AS event, e.id AS "endpointId"
    FROM jsonb_to_recordset($1::jsonb) AS f(i int, owner_type text, owner_id text, type text)
    JOIN ${schema}.webhook_endpoints e
      ON e.owner_type = f.owner_type AND e.owner_id = f.owner_id
     AND e.enabled
     AND (f.type = ANY (e.enabled_events) OR '*' = ANY (e.enabled_events))
   ORDER BY f.i, e.created_at, e.id`;

// A fact seen again (redelivery after a crash between commit and offset
// commit, or a replay) finds its (endpoint, fact) rows and adds nothing. The
// NOTIFY is transactional: workers wake at commit, never for a rollback.
const INSERT_SQL = `
  WITH written AS (
    INSERT INTO ${schema}.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at, trace_context)
    SELECT d.id, d.endpoint_id, d.source_event_id, d.type, d.payload, 'created', now(), d.trace_context
      FROM jsonb_to_recordset($1::jsonb) AS d(id text, endpoint_id text, source_event_id text, type text, payload jsonb, trace_context text)
    ON CONFLICT (endpoint_id, source_event_id) DO NOTHING
    RETURNING 1
  )
  SELECT pg_notify($2, n::text) FROM (SELECT count(*) AS n FROM written) c WHERE n > 0`;

/** Writes delivery records for a batch of public events with two statements, inside the handler's transaction. */
@Injectable()
export class DeliveryIntakeRepository {
  /** Enabled endpoints of each event's owner subscribed to its type or to `*`. Paused endpoints match nothing. */
  async matchEndpoints(
    tx: WebhookTx,
    events: readonly { ownerType: OwnerType; ownerId: string; type: string }[],
  ): Promise<EventTarget[]> {
    const rows = events.map((e, i) => ({ i, owner_type: e.ownerType, owner_id: e.ownerId, type: e.type }));
    return tx.$queryRawUnsafe<EventTarget[]>(MATCH_SQL, JSON.stringify(rows));
  }

  /** Status `created`, due now; then wakes the delivery workers. */
  async insert(tx: WebhookTx, deliveries: readonly NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const rows = deliveries.map((d) => ({
      id: d.id,
      endpoint_id: d.endpointId,
      source_event_id: d.sourceEventId,
      type: d.type,
      payload: d.payload,
      trace_context: d.traceContext,
    }));
    await tx.$executeRawUnsafe(INSERT_SQL, JSON.stringify(rows), DELIVERIES_CHANNEL);
  }
}
