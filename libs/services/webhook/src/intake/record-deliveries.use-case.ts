import { Injectable } from '@nestjs/common';
import { prefixedId } from '@genasset/contracts';
import { currentTraceHeaders } from '@genasset/observability';
import { eventBody, type PublicEvent } from '../event-catalog';
import type { WebhookTx } from '../webhook.prisma';
import { DeliveryIntakeRepository, type NewDelivery } from './delivery-intake.repository';

/**
 * Turns public events into delivery records, one per subscribed enabled
 * endpoint, before any attempt is made (DESIGN §3). Runs in the consumer's
 * transaction, which also marks the facts as applied.
 */
@Injectable()
export class RecordDeliveries {
  constructor(private readonly intake: DeliveryIntakeRepository) {}

  async execute(tx: WebhookTx, candidates: readonly (PublicEvent | undefined)[]): Promise<number> {
    const events = candidates.filter((e): e is PublicEvent => e !== undefined);
    // Most facts (job progress, cancelled generations) concern no receiver: no query at all.
    if (events.length === 0) return 0;
    const targets = await this.intake.matchEndpoints(tx, events);
    // The consumer span of this batch (tracing on): every attempt's span continues it.
    const traceContext = currentTraceHeaders()?.traceparent;
    const deliveries = targets.map(({ event, endpointId }): NewDelivery => {
      const source = events[event];
      // The delivery id is the body's id: unique per event and endpoint, kept across retries.
      const id = prefixedId('whevent');
      return {
        id,
        endpointId,
        sourceEventId: source.sourceEventId,
        type: source.type,
        payload: eventBody(id, source),
        traceContext,
      };
    });
    await this.intake.insert(tx, deliveries);
    return deliveries.length;
  }
}
