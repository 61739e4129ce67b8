import type { OwnerType } from '../owners/webhook-owner';
import type { PublicEventType } from './event-types';

/** One public event derived from one internal fact, before it is fanned out to endpoints. */
export interface PublicEvent {
  /** The internal fact's envelope id: with the endpoint, the idempotency key of a delivery. */
  readonly sourceEventId: string;
  readonly ownerType: OwnerType;
  readonly ownerId: string;
  readonly type: PublicEventType;
  readonly data: Record<string, unknown>;
  /** Body version, only on event types that carry one (spec: team credit event, 1). */
  readonly version?: number;
}

/** What a receiver gets (spec: Delivery → Body). `id` is the delivery's id: unique per event per endpoint. */
export interface EventBody {
  id: string;
  type: PublicEventType;
  data: Record<string, unknown>;
  version?: number;
}

export function eventBody(deliveryId: string, event: PublicEvent): EventBody {
  return {
    id: deliveryId,
    type: event.type,
    data: event.data,
    ...(event.version === undefined ? {} : { version: event.version }),
  };
}
