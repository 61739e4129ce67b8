import type { WebhookEndpoint } from '../generated/prisma/client';
import type { OwnerType } from '../owners/webhook-owner';
import type { WebhookEndpointRecord } from './dto/webhook-endpoint.response';

/**
 * The public record, fields in the spec's order. Built field by field from the
 * row — never by spreading it — so internal columns (the secret's ciphertext,
 * team id) cannot leak by accident.
 */
export function presentEndpoint(row: WebhookEndpoint): WebhookEndpointRecord {
  return {
    id: row.id,
    ownerId: row.ownerId,
    ownerType: row.ownerType as OwnerType,
    url: row.url,
    enabledEvents: row.enabledEvents,
    enabled: row.enabled,
    ...(row.description ? { description: row.description } : {}),
    nbTotalCalls: row.nbTotalCalls,
    nbFailedCalls: row.nbFailedCalls,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
