import type { ClaimedDelivery } from './delivery.repository';

/**
 * Room a delivery worker reserved for deliveries the intake of the same
 * process is about to write: the intake writes the taken ones already leased
 * to the worker and passes them over once its transaction has committed, so
 * they start without a claim (no second write of the row, no claim query).
 * Anything that goes wrong falls back to the shared queue: a lease that is
 * never started expires and any replica claims the delivery then.
 */
export interface DeliveryHandoff {
  /** One entry per delivery offered, in order: true when the worker took it. */
  readonly taken: readonly boolean[];
  /** How long the intake leases a taken delivery. */
  readonly leaseMs: number;
  /**
   * Call exactly once, after the intake's transaction: the taken deliveries
   * that were written and committed (none after a rollback; a delivery that
   * already existed was not written). The rest of the reservation is released.
   */
  complete(arrived: readonly ClaimedDelivery[]): void;
}

export interface DeliveryHandoffPort {
  /** Room for new deliveries of these endpoints (one entry per delivery); undefined when there is none. */
  offer(endpointIds: readonly string[]): DeliveryHandoff | undefined;
}

/** Provided by DispatchModule (the process's delivery worker); absent where no worker runs. */
export const DELIVERY_HANDOFF = Symbol('DELIVERY_HANDOFF');
