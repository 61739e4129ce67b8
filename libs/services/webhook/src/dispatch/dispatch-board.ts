import type { ClaimedDelivery } from './delivery.repository';

/** Deliveries held per endpoint and in all. */
class Tally {
  private readonly byEndpoint = new Map<string, number>();
  total = 0;

  of(endpointId: string): number {
    return this.byEndpoint.get(endpointId) ?? 0;
  }

  endpoints(): IterableIterator<string> {
    return this.byEndpoint.keys();
  }

  add(endpointId: string): void {
    this.byEndpoint.set(endpointId, this.of(endpointId) + 1);
    this.total++;
  }

  /** False (and nothing changes) when the endpoint holds none. */
  remove(endpointId: string): boolean {
    const n = this.of(endpointId);
    if (n <= 0) return false;
    if (n === 1) this.byEndpoint.delete(endpointId);
    else this.byEndpoint.set(endpointId, n - 1);
    this.total--;
    return true;
  }
}

/**
 * Deliveries of this process, waiting or in flight. At most `maxInFlight`
 * attempts run at once, at most `perEndpoint` per endpoint (one slow receiver
 * cannot hold every slot); endpoints take turns. The caps are per process:
 * with N replicas an endpoint sees up to N × perEndpoint attempts at once.
 *
 * Deliveries come two ways, each with its own room, so neither can crowd out
 * the other:
 * - **claimed** from the shared queue (backlog, retries, other replicas'
 *   facts): up to `prefetch` windows of attempts, per endpoint and in all, so
 *   a slot that frees up is refilled without a database round trip;
 * - **handed off** by the intake of this process, written leased to it: room
 *   is reserved before the write and held until the delivery arrives or the
 *   reservation is released; up to `handoffDepth` windows, since each one
 *   spares the database a claim and a second write of the row. The worker
 *   gives back any delivery that waited too long to finish within its lease.
 */
export class DispatchBoard {
  private readonly waiting = new Map<string, ClaimedDelivery[]>();
  private readonly running = new Map<string, number>();
  private readonly claimed = new Tally();
  private readonly reserved = new Tally();
  private readonly handedOff = new Tally();
  /** Ids of the claimed deliveries held (the rest were handed off). */
  private readonly claimedIds = new Set<string>();
  private queuedCount = 0;
  private runningCount = 0;

  constructor(
    readonly maxInFlight: number,
    readonly perEndpoint: number,
    readonly prefetch = 2,
    // 32 windows (8,192 deliveries at the default 256 in flight, 2,048 at the bench's 64): a burst of facts fits without
    // spilling into claims (bench/webhooks: 5,000-7,900 of 30,500 deliveries were claimed at 8, none
    // at 32; PostgreSQL -19 %, dispatcher -12 % CPU). A delivery that waits too long is given back.
    readonly handoffDepth = 32,
  ) {}

  get inFlight(): number {
    return this.runningCount;
  }

  get queued(): number {
    return this.queuedCount;
  }

  /** How many more deliveries this process may claim now. */
  get room(): number {
    return Math.max(0, this.maxInFlight * this.prefetch - this.claimed.total);
  }

  /**
   * Room for new deliveries of these endpoints (one entry per delivery) in
   * the hand-off windows, in all and per endpoint: true for each one reserved.
   */
  reserve(endpointIds: readonly string[]): boolean[] {
    const limit = this.perEndpoint * this.handoffDepth;
    const total = this.maxInFlight * this.handoffDepth;
    return endpointIds.map((endpointId) => {
      if (this.handoffsHeld() >= total || this.handoffsHeld(endpointId) >= limit) return false;
      this.reserved.add(endpointId);
      return true;
    });
  }

  /** Gives back reserved room whose delivery will not arrive (rolled back, written before, shutting down). */
  release(endpointIds: readonly string[]): void {
    for (const endpointId of endpointIds) this.reserved.remove(endpointId);
  }

  /** Endpoints holding claimed deliveries here → how many more of theirs may be claimed (0: none). */
  busy(): Map<string, number> {
    const limit = this.perEndpoint * this.prefetch;
    const busy = new Map<string, number>();
    for (const endpointId of this.claimed.endpoints())
      busy.set(endpointId, Math.max(0, limit - this.claimed.of(endpointId)));
    return busy;
  }

  /** Claimed deliveries, or handed-off ones arriving (`reserved`: their room was reserved). */
  add(deliveries: readonly ClaimedDelivery[], reserved = false): void {
    for (const delivery of deliveries) {
      if (reserved) {
        this.reserved.remove(delivery.endpointId);
        this.handedOff.add(delivery.endpointId);
      } else {
        this.claimed.add(delivery.endpointId);
        this.claimedIds.add(delivery.id);
      }
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

  /** A delivery `next` gave out is finished (attempted or given back): its slot and its room are free. */
  done(delivery: ClaimedDelivery): void {
    const running = (this.running.get(delivery.endpointId) ?? 1) - 1;
    if (running <= 0) this.running.delete(delivery.endpointId);
    else this.running.set(delivery.endpointId, running);
    this.runningCount = Math.max(0, this.runningCount - 1);
    this.forget(delivery);
  }

  /**
   * Takes the waiting (not started) deliveries of one endpoint out of the board,
   * for the worker to give back: the endpoint was paused, deleted or re-pointed.
   */
  takeWaitingOf(endpointId: string): ClaimedDelivery[] {
    const queue = this.waiting.get(endpointId);
    if (!queue) return [];
    this.waiting.delete(endpointId);
    this.queuedCount -= queue.length;
    for (const delivery of queue) this.forget(delivery);
    return queue;
  }

  /** Removes and returns every delivery not started yet (shutdown gives their leases back). */
  takeWaiting(): ClaimedDelivery[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.queuedCount = 0;
    for (const delivery of all) this.forget(delivery);
    return all;
  }

  private forget(delivery: ClaimedDelivery): void {
    if (this.claimedIds.delete(delivery.id)) this.claimed.remove(delivery.endpointId);
    else this.handedOff.remove(delivery.endpointId);
  }

  private handoffsHeld(endpointId?: string): number {
    return endpointId === undefined
      ? this.reserved.total + this.handedOff.total
      : this.reserved.of(endpointId) + this.handedOff.of(endpointId);
  }
}
