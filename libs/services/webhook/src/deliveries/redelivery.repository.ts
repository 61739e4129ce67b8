import { Injectable } from '@nestjs/common';
import type { WebhookDelivery } from '../generated/prisma/client';
import type { WebhookOwner } from '../owners/webhook-owner';
import { WebhookPrisma, type WebhookTx } from '../webhook.prisma';
import { WEBHOOK_SCHEMA } from '../webhook.schema';

const S = `"${WEBHOOK_SCHEMA.schema}"`;

/** Statuses of a delivery still to be attempted. */
export const PENDING_STATUSES = ['created', 'retrying'] as const;

/** A delivery a resend copies: its id, status and the event it belongs to (the id in its body). */
export interface SourceDelivery {
  id: string;
  status: string;
  eventId: string;
}

/** A failed delivery found by the recovery walk, with its place in the walk's order. */
export interface FailedDelivery extends SourceDelivery {
  createdAt: Date;
}

/** Where the recovery walk resumes: strictly before (createdAt, id) in (createdAt desc, id desc) order. */
export interface WalkPosition {
  createdAt: Date;
  id: string;
}

/** A new delivery to write: its id, and the delivery whose body, type and endpoint it takes. */
export interface Copy {
  id: string;
  sourceId: string;
}

// Copies payload (the json column's text, byte for byte), type, endpoint and source fact; a fresh
// delivery: `created`, due now, no attempts, not leased. Skips a source whose event already has a
// delivery in one of $4's statuses (the first delivery, by id, or a resend, by resend_of).
const COPY_SQL = `
  INSERT INTO ${S}.webhook_deliveries
    (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at, trace_context, resend_of)
  SELECT c.id, s.endpoint_id, s.source_event_id, s.type, s.payload, 'created', now(), $3, s.event_id
    FROM json_to_recordset($1::json) AS c(id text, source text)
    JOIN (SELECT d.*, coalesce(d.resend_of, d.id) AS event_id FROM ${S}.webhook_deliveries d) s
      ON s.id = c.source AND s.endpoint_id = $2
   WHERE NOT EXISTS (SELECT 1 FROM ${S}.webhook_deliveries x
                      WHERE x.id = s.event_id AND x.status = ANY ($4::text[]))
     AND NOT EXISTS (SELECT 1 FROM ${S}.webhook_deliveries x
                      WHERE x.resend_of = s.event_id AND x.status = ANY ($4::text[]))
  RETURNING id`;

// One batch of an endpoint's failed deliveries created in [$2, $3), newest first, strictly after the
// position ($3, $4): the partial index of failed deliveries (migration 0006) walked from $3 down.
// The first batch passes $3 = the window's end and $4 = '' (no id is below ''), i.e. created_at < end.
const FAILED_SQL = `
  SELECT d.id, d.status, coalesce(d.resend_of, d.id) AS "eventId", d.created_at AS "createdAt"
    FROM ${S}.webhook_deliveries d
   WHERE d.endpoint_id = $1 AND d.status = 'failed'
     AND d.created_at >= $2::timestamptz AND d.created_at <= $3::timestamptz
     AND (d.created_at < $3::timestamptz OR d.id < $4)
   ORDER BY d.created_at DESC, d.id DESC
   LIMIT $5`;

/**
 * The writes of the delivery operations (resend, recover): raw SQL so a payload is copied as the
 * stored text, never parsed and re-serialised, and a batch of copies is one statement.
 */
@Injectable()
export class RedeliveryRepository {
  constructor(private readonly prisma: WebhookPrisma) {}

  transaction<T>(fn: (tx: WebhookTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /**
   * The owner's endpoint (undefined for an unknown one or another owner's), held until the
   * transaction ends: `FOR KEY SHARE` keeps a DELETE from committing in between (so a copy never
   * lands on a deleted endpoint) without blocking a pause or the workers' counter updates, and a
   * transaction-scoped advisory lock runs the redeliveries of one endpoint one at a time, so "does
   * the event have a pending delivery?" and the insert cannot interleave with another's.
   */
  async lockEndpoint(
    tx: WebhookTx,
    owner: WebhookOwner,
    endpointId: string,
  ): Promise<{ enabled: boolean } | undefined> {
    const [endpoint] = await tx.$queryRawUnsafe<{ enabled: boolean }[]>(
      `SELECT enabled FROM ${S}.webhook_endpoints WHERE id = $1 AND owner_type = $2 AND owner_id = $3 FOR KEY SHARE`,
      endpointId,
      owner.type,
      owner.id,
    );
    if (!endpoint) return undefined;
    await tx.$executeRawUnsafe(
      'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
      `webhook-redelivery:${endpointId}`,
    );
    return endpoint;
  }

  async source(tx: WebhookTx, endpointId: string, id: string): Promise<SourceDelivery | undefined> {
    const [row] = await tx.$queryRawUnsafe<SourceDelivery[]>(
      `SELECT id, status, coalesce(resend_of, id) AS "eventId" FROM ${S}.webhook_deliveries WHERE id = $1 AND endpoint_id = $2`,
      id,
      endpointId,
    );
    return row;
  }

  /** A delivery of the event (its first or a resend) still to be attempted, if any. */
  async pendingOf(tx: WebhookTx, eventId: string): Promise<string | undefined> {
    const [row] = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM ${S}.webhook_deliveries WHERE id = $1 AND status = ANY ($2::text[])
       UNION ALL
       SELECT id FROM ${S}.webhook_deliveries WHERE resend_of = $1 AND status = ANY ($2::text[])
       LIMIT 1`,
      eventId,
      PENDING_STATUSES,
    );
    return row?.id;
  }

  failedBatch(
    tx: WebhookTx,
    endpointId: string,
    since: Date,
    before: WalkPosition,
    limit: number,
  ): Promise<FailedDelivery[]> {
    return tx.$queryRawUnsafe<FailedDelivery[]>(
      FAILED_SQL,
      endpointId,
      since.toISOString(),
      before.createdAt.toISOString(),
      before.id,
      limit,
    );
  }

  /**
   * Writes the copies in one statement, each skipped when its event already has a delivery in
   * one of `skipIf`'s statuses; returns the ids written. `traceContext`: the request's span, which
   * the attempts' spans continue.
   */
  async copy(
    tx: WebhookTx,
    endpointId: string,
    copies: readonly Copy[],
    skipIf: readonly string[],
    traceContext: string | undefined,
  ): Promise<string[]> {
    if (copies.length === 0) return [];
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      COPY_SQL,
      JSON.stringify(copies.map((c) => ({ id: c.id, source: c.sourceId }))),
      endpointId,
      traceContext ?? null,
      skipIf,
    );
    return rows.map((r) => r.id);
  }

  find(tx: WebhookTx, id: string): Promise<WebhookDelivery> {
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id } });
  }
}
