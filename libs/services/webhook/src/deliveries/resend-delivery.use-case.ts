import { Injectable } from '@nestjs/common';
import { prefixedId } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { currentTraceHeaders } from '@genasset/observability';
import type { WebhookOwner } from '../owners/webhook-owner';
import { announceDueDeliveries } from './delivery-wakeup.repository';
import type { WebhookEventResponse } from './dto/webhook-event.response';
import { endpointPaused, eventPending } from './redelivery-conflicts';
import { PENDING_STATUSES, RedeliveryRepository } from './redelivery.repository';
import { presentDelivery } from './webhook-event.presenter';

/**
 * Resends one final delivery (an extension of the spec): a new delivery record of the same event
 * to the same endpoint, with the same body bytes (so the body's `id` is the event's, and a
 * receiver deduplicating on it sees a redelivery), its own id, status and attempts, signed afresh
 * at each attempt by the delivery workers. The original keeps its status. Emits no event: the
 * record and the workers' wake-up (NOTIFY, delivered at commit) are one transaction.
 */
@Injectable()
export class ResendDelivery {
  constructor(private readonly redeliveries: RedeliveryRepository) {}

  async execute(owner: WebhookOwner, endpointId: string, id: string): Promise<WebhookEventResponse> {
    const row = await this.redeliveries.transaction(async (tx) => {
      const endpoint = await this.redeliveries.lockEndpoint(tx, owner, endpointId);
      if (!endpoint) throw ApiError.notFound('Webhook endpoint', endpointId);
      const source = await this.redeliveries.source(tx, endpointId, id);
      if (!source) throw ApiError.notFound('Webhook event', id);
      if (!endpoint.enabled) throw endpointPaused(endpointId);
      // Not final yet (or an earlier resend still is): another copy would only race it.
      const pending = await this.redeliveries.pendingOf(tx, source.eventId);
      if (pending) throw eventPending(source.eventId, pending);
      const [newId] = await this.redeliveries.copy(
        tx,
        endpointId,
        [{ id: prefixedId('whevent'), sourceId: source.id }],
        PENDING_STATUSES,
        currentTraceHeaders()?.traceparent,
      );
      await announceDueDeliveries(tx, 1);
      return this.redeliveries.find(tx, newId);
    });
    return { webhookEvent: presentDelivery(row) };
  }
}
