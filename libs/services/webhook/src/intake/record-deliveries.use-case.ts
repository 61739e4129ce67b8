import { Inject, Injectable, Optional } from '@nestjs/common';
import { prefixedId } from '@genasset/contracts';
import type { EventContext, SqlClient } from '@genasset/messaging';
import { currentTraceHeaders } from '@genasset/observability';
import { DELIVERY_HANDOFF, type DeliveryHandoffPort } from '../dispatch/delivery-handoff';
import type { ClaimedDelivery } from '../dispatch/delivery.repository';
import { eventBody, type PublicEvent } from '../event-catalog';
import { DeliveryIntakeRepository, type EventTarget, type NewDelivery } from './delivery-intake.repository';

/**
 * Turns public events into delivery records, one per subscribed enabled
 * endpoint, before any attempt is made (docs/webhooks.md). Runs in the consumer's
 * transaction, which also marks the facts as applied. Deliveries this
 * process's worker has room for are written leased to it and handed over when
 * the transaction commits (DeliveryHandoff); the rest wait in the queue for
 * any replica's claim.
 */
@Injectable()
export class RecordDeliveries {
  constructor(
    private readonly intake: DeliveryIntakeRepository,
    @Optional() @Inject(DELIVERY_HANDOFF) private readonly handoff?: DeliveryHandoffPort,
  ) {}

  async execute(
    ctx: EventContext<SqlClient>,
    candidates: readonly (PublicEvent | undefined)[],
  ): Promise<number> {
    const events = candidates.filter((e): e is PublicEvent => e !== undefined);
    // Most facts (job progress, cancelled generations) concern no receiver: no query at all.
    if (events.length === 0) return 0;
    const targets = await this.intake.matchEndpoints(ctx.tx, events);
    if (targets.length === 0) return 0;
    // The consumer span of this batch (tracing on): every attempt's span continues it.
    const traceContext = currentTraceHeaders()?.traceparent;
    const handoff = this.handoff?.offer(targets.map((t) => t.endpointId));
    const deliveries = targets.map(({ event, endpointId }, i): NewDelivery => {
      const source = events[event];
      // The delivery id is the body's id: unique per event and endpoint, kept across retries.
      const id = prefixedId('whevent');
      return {
        id,
        endpointId,
        sourceEventId: source.sourceEventId,
        type: source.type,
        payload: JSON.stringify(eventBody(id, source)),
        traceContext,
        ...(handoff?.taken[i] ? { leaseMs: handoff.leaseMs } : {}),
      };
    });
    if (!handoff) {
      await this.intake.insert(ctx.tx, deliveries);
      return deliveries.length;
    }
    let leasedAt = 0;
    // Registered before the insert: a failing insert rolls back too, and the reservation must be released.
    ctx.onSettled((committed) => {
      handoff.complete(committed ? leasedDeliveries(targets, deliveries, leasedAt) : []);
    });
    // The lease starts at the transaction's start (now()), a few ms earlier: the worker's slack covers that.
    leasedAt = Date.now();
    await this.intake.insert(ctx.tx, deliveries);
    return deliveries.length;
  }
}

/** The deliveries written leased to this process's worker, as the worker takes them (the payload as stored). */
function leasedDeliveries(
  targets: readonly EventTarget[],
  deliveries: readonly NewDelivery[],
  leasedAt: number,
): ClaimedDelivery[] {
  const leased: ClaimedDelivery[] = [];
  deliveries.forEach((d, i) => {
    if (d.leaseMs === undefined) return;
    leased.push({
      id: d.id,
      endpointId: d.endpointId,
      payload: d.payload,
      attemptCount: 0,
      url: targets[i].url,
      secretCiphertext: targets[i].secretCiphertext,
      traceContext: d.traceContext ?? null,
      leasedAt,
    });
  });
  return leased;
}
