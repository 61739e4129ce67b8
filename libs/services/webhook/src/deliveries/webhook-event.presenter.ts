import type { DeliveryStatus, WebhookEventRecord } from './dto/webhook-event.response';
import type { DeliveryWithAttempts } from './deliveries.repository';

/** The public delivery record, fields in the spec's order; internal columns (lease, next attempt, source fact) stay in. */
export function presentDelivery(row: DeliveryWithAttempts): WebhookEventRecord {
  return {
    id: row.id,
    endpointId: row.endpointId,
    type: row.type,
    status: row.status as DeliveryStatus,
    payload: row.payload as Record<string, unknown>,
    attempts: row.attempts.map((a) => ({
      responseStatusCode: a.responseStatusCode,
      sentAt: a.sentAt.toISOString(),
    })),
    createdAt: row.createdAt.toISOString(),
    // Always present (spec, and upstream requires it): before any attempt, when the event was recorded.
    sentAt: (row.sentAt ?? row.createdAt).toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
