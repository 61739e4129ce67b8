import type { WebhookDelivery } from '../../generated/prisma/client';
import type { WebhookTx } from '../../webhook.prisma';
import type {
  Copy,
  FailedDelivery,
  RedeliveryRepository,
  SourceDelivery,
  WalkPosition,
} from '../redelivery.repository';

export interface FakeDelivery {
  id: string;
  status: string;
  resendOf?: string;
  createdAt: Date;
}

/**
 * An in-memory stand-in for RedeliveryRepository with the same rules (the SQL is covered by the
 * integration tests): one endpoint, its deliveries, the copies written and the wake-ups sent.
 * `onLock` runs at each transaction's lock: a test pauses or deletes the endpoint between batches.
 */
export class FakeRedeliveries {
  endpoint: { id: string; enabled: boolean } | undefined = { id: 'we_1', enabled: true };
  readonly deliveries: FakeDelivery[] = [];
  readonly notified: string[] = [];
  readonly walks: { since: Date; before: WalkPosition; limit: number }[] = [];
  transactions = 0;
  onLock?: (transaction: number) => void;

  private readonly tx = {
    $executeRawUnsafe: async (_sql: string, channel: string, payload: string) => {
      this.notified.push(`${channel}:${payload}`);
      return 1;
    },
  } as unknown as WebhookTx;

  asRepository(): RedeliveryRepository {
    return this as unknown as RedeliveryRepository;
  }

  async transaction<T>(fn: (tx: WebhookTx) => Promise<T>): Promise<T> {
    this.transactions++;
    const before = [...this.deliveries];
    const notified = this.notified.length;
    try {
      return await fn(this.tx);
    } catch (error) {
      // Rolled back: nothing written, nothing announced.
      this.deliveries.splice(0, this.deliveries.length, ...before);
      this.notified.length = notified;
      throw error;
    }
  }

  async lockEndpoint(_tx: WebhookTx, _owner: unknown, endpointId: string) {
    this.onLock?.(this.transactions);
    return this.endpoint?.id === endpointId ? { enabled: this.endpoint.enabled } : undefined;
  }

  async source(_tx: WebhookTx, _endpointId: string, id: string): Promise<SourceDelivery | undefined> {
    const d = this.deliveries.find((x) => x.id === id);
    return d && { id: d.id, status: d.status, eventId: d.resendOf ?? d.id };
  }

  async pendingOf(_tx: WebhookTx, eventId: string): Promise<string | undefined> {
    return this.ofEvent(eventId).find((d) => d.status === 'created' || d.status === 'retrying')?.id;
  }

  async failedBatch(
    _tx: WebhookTx,
    _endpointId: string,
    since: Date,
    before: WalkPosition,
    limit: number,
  ): Promise<FailedDelivery[]> {
    this.walks.push({ since, before, limit });
    const key = (d: { createdAt: Date; id: string }) => `${d.createdAt.toISOString()} ${d.id}`;
    return this.deliveries
      .filter((d) => d.status === 'failed' && d.createdAt >= since && key(d) < key(before))
      .sort((a, b) => (key(a) < key(b) ? 1 : -1))
      .slice(0, limit)
      .map((d) => ({ id: d.id, status: d.status, eventId: d.resendOf ?? d.id, createdAt: d.createdAt }));
  }

  async copy(
    _tx: WebhookTx,
    _endpointId: string,
    copies: readonly Copy[],
    skipIf: readonly string[],
  ): Promise<string[]> {
    const written: string[] = [];
    // One statement: its NOT EXISTS sees the rows as they were before it, not its own inserts.
    const before = [...this.deliveries];
    for (const c of copies) {
      const source = before.find((d) => d.id === c.sourceId);
      if (!source) continue;
      const eventId = source.resendOf ?? source.id;
      if (this.ofEvent(eventId, before).some((d) => skipIf.includes(d.status))) continue;
      this.deliveries.push({ id: c.id, status: 'created', resendOf: eventId, createdAt: new Date() });
      written.push(c.id);
    }
    return written;
  }

  async find(_tx: WebhookTx, id: string): Promise<WebhookDelivery> {
    const d = this.deliveries.find((x) => x.id === id)!;
    return {
      id: d.id,
      endpointId: 'we_1',
      sourceEventId: 'evt_1',
      type: 'generation.completed',
      payload: { id: d.resendOf ?? d.id, type: 'generation.completed', data: {} },
      status: d.status,
      attemptCount: 0,
      nextAttemptAt: d.createdAt,
      leaseUntil: null,
      createdAt: d.createdAt,
      sentAt: null,
      updatedAt: d.createdAt,
      traceContext: null,
      attempts: [],
      resendOf: d.resendOf ?? null,
    };
  }

  private ofEvent(eventId: string, deliveries = this.deliveries): FakeDelivery[] {
    return deliveries.filter((d) => (d.resendOf ?? d.id) === eventId);
  }
}
