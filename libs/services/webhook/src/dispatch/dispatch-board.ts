import type { ClaimedDelivery } from './delivery.repository';

/**
 * Claimed deliveries of this process, waiting or in flight. At most
 * `maxInFlight` attempts run at once, at most `perEndpoint` per endpoint (one
 * slow receiver cannot hold every slot). Up to as many again wait claimed
 * (`prefetch`), so a slot that frees up is refilled at once instead of after a
 * database round trip. Endpoints take turns. The caps are per process: with N
 * replicas an endpoint sees up to N × perEndpoint attempts at once.
 * Room can also be reserved for deliveries the intake of this process is
 * writing leased to it (hand-off): they count as held until they arrive or
 * the reservation is released. Hand-offs may fill the board deeper than
 * claims (`handoffDepth` windows instead of `prefetch`): each one spares the
 * database a claim and a second write of the row, and the worker gives back
 * any that waited too long to finish within its lease.
 */
export class DispatchBoard {
  private readonly waiting = new Map<string, ClaimedDelivery[]>();
  private readonly running = new Map<string, number>();
  private readonly reserved = new Map<string, number>();
  private queuedCount = 0;
  private runningCount = 0;
  private reservedCount = 0;

  constructor(
    readonly maxInFlight: number,
    readonly perEndpoint: number,
    readonly prefetch = 2,
    readonly handoffDepth = 8,
  ) {}

  get inFlight(): number {
    return this.runningCount;
  }

  get queued(): number {
    return this.queuedCount;
  }

  /** How many more deliveries this process may claim now. */
  get room(): number {
    return Math.max(0, this.maxInFlight * this.prefetch - this.heldInAll);
  }

  private get heldInAll(): number {
    return this.runningCount + this.queuedCount + this.reservedCount;
  }

  /**
   * Room for new deliveries of these endpoints (one entry per delivery), up
   * to `depth` windows in all and per endpoint: true for each one reserved. Reserved room is held
   * until `add` (the delivery arrived) or `release`.
   */
  reserve(endpointIds: readonly string[], depth = this.handoffDepth): boolean[] {
    const limit = this.perEndpoint * depth;
    const total = this.maxInFlight * depth;
    return endpointIds.map((endpointId) => {
      if (this.heldInAll >= total || this.held(endpointId) >= limit) return false;
      this.reserved.set(endpointId, (this.reserved.get(endpointId) ?? 0) + 1);
      this.reservedCount++;
      return true;
    });
  }

  /** Gives back reserved room whose delivery will not arrive (rolled back, written before, shutting down). */
  release(endpointIds: readonly string[]): void {
    for (const endpointId of endpointIds) this.unreserve(endpointId);
  }

  /** Endpoints holding deliveries here → how many more of theirs may be claimed (0: none). */
  busy(): Map<string, number> {
    const busy = new Map<string, number>();
    const limit = this.perEndpoint * this.prefetch;
    for (const endpointId of new Set([
      ...this.waiting.keys(),
      ...this.running.keys(),
      ...this.reserved.keys(),
    ])) {
      busy.set(endpointId, Math.max(0, limit - this.held(endpointId)));
    }
    return busy;
  }

  /** Claimed deliveries, or reserved ones arriving (`reserved`: their room was reserved). */
  add(deliveries: readonly ClaimedDelivery[], reserved = false): void {
    for (const delivery of deliveries) {
      if (reserved) this.unreserve(delivery.endpointId);
      const queue = this.waiting.get(delivery.endpointId);
      if (queue) queue.push(delivery);
      else this.waiting.set(delivery.endpointId, [delivery]);
      this.queuedCount++;
    }
  }

  /** The next delivery that may start now (marked in flight), endpoints in turn; undefined if none may. */
  next(): ClaimedDelivery | undefined {
    if (this.runningCount >= this.maxInFlight) return undefined;
    for (const [endpointId, queue] of this.waiting) {
      const running = this.running.get(endpointId) ?? 0;
      if (running >= this.perEndpoint) continue;
      const delivery = queue.shift()!;
      // Served endpoints go to the back of the line.
      this.waiting.delete(endpointId);
      if (queue.length > 0) this.waiting.set(endpointId, queue);
      this.running.set(endpointId, running + 1);
      this.queuedCount--;
      this.runningCount++;
      return delivery;
    }
    return undefined;
  }

  done(endpointId: string): void {
    const running = (this.running.get(endpointId) ?? 1) - 1;
    if (running <= 0) this.running.delete(endpointId);
    else this.running.set(endpointId, running);
    this.runningCount = Math.max(0, this.runningCount - 1);
  }

  /** Removes and returns every delivery not started yet (shutdown gives their claims back). */
  takeWaiting(): ClaimedDelivery[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.queuedCount = 0;
    return all;
  }

  private held(endpointId: string): number {
    return (
      (this.waiting.get(endpointId)?.length ?? 0) +
      (this.running.get(endpointId) ?? 0) +
      (this.reserved.get(endpointId) ?? 0)
    );
  }

  private unreserve(endpointId: string): void {
    const left = (this.reserved.get(endpointId) ?? 0) - 1;
    if (left < 0) return;
    if (left === 0) this.reserved.delete(endpointId);
    else this.reserved.set(endpointId, left);
    this.reservedCount--;
  }
}
