import type { DeliveryStatus, WebhookEventRecord } from './dto/webhook-event.response';
import type { WebhookDelivery } from '../generated/prisma/client';

/** The public delivery record, fields in the spec's order; internal columns (lease, next attempt, source fact) stay in. */
export function presentDelivery(row: WebhookDelivery): WebhookEventRecord {
  return {
    id: row.id,
    endpointId: row.endpointId,
    type: row.type,
    status: row.status as DeliveryStatus,
    payload: row.payload as Record<string, unknown>,
    attempts: storedAttempts(row.attempts).map((a) => ({
      responseStatusCode: a.responseStatusCode,
      sentAt: new Date(a.sentAt).toISOString(),
    })),
    createdAt: row.createdAt.toISOString(),
    // Always present (spec, and upstream requires it): before any attempt, when the event was recorded.
    sentAt: (row.sentAt ?? row.createdAt).toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // An extension, on resends only: a first delivery keeps exactly the spec's fields.
    ...(row.resendOf === null ? {} : { resendOf: row.resendOf }),
  };
}

/** An entry of the row's `attempts` column (migration 0005), oldest first; durationMs and error stay in. */
interface StoredAttempt {
  responseStatusCode: number;
  sentAt: string;
}

function storedAttempts(value: unknown): StoredAttempt[] {
  return Array.isArray(value) ? (value as StoredAttempt[]) : [];
}
