import type { InboundRecord, OutboundMessage, Publisher } from '../core/messages';

type Deliver = (records: readonly InboundRecord[]) => Promise<void>;

interface Subscriber {
  readonly topics: ReadonlySet<string>;
  readonly deliver: Deliver;
}

/**
 * The embedded-mode broker: the relay's `publish` runs every subscribed
 * consumer's handlers and resolves only when they are done (applied or
 * dead-lettered), so the relay deletes outbox rows only afterwards and a crash
 * loses nothing. Relay batches arrive in outbox order and each consumer takes
 * a batch in that order, so per-key order holds.
 */
export class InProcessBus implements Publisher {
  readonly deliversInProcess = true;
  private readonly subscribers = new Map<string, Subscriber>();
  private open = false;

  subscribe(consumer: string, topics: readonly string[], deliver: Deliver): void {
    if (this.subscribers.has(consumer)) throw new Error(`in-process consumer ${consumer} subscribed twice`);
    this.subscribers.set(consumer, { topics: new Set(topics), deliver });
  }

  /** Starts accepting events; before this the relays keep their rows (nobody would receive them). */
  openForDelivery(): void {
    this.open = true;
  }

  async publish(messages: readonly OutboundMessage[]): Promise<void> {
    if (!this.open) {
      throw new Error(
        'in-process transport is not consuming yet (connectMessaging(app) then app.startAllMicroservices())',
      );
    }
    const records = messages.map(toRecord);
    // Consumers are independent of each other (own schema, own inbox): run them side by side.
    await Promise.all(
      [...this.subscribers.values()].map(async ({ topics, deliver }) => {
        const mine = records.filter((r) => topics.has(r.topic));
        if (mine.length > 0) await deliver(mine);
      }),
    );
  }

  async check(): Promise<void> {
    if (!this.open) throw new Error('in-process transport is not consuming yet');
  }

  async close(): Promise<void> {
    this.open = false;
    this.subscribers.clear();
  }
}

/** Events carry no headers (the envelope has everything): the same on both transports. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

function toRecord(message: OutboundMessage): InboundRecord {
  return {
    topic: message.topic,
    partition: 0,
    offset: message.seq ?? '0',
    key: message.key,
    value: message.value,
    headers: NO_HEADERS,
  };
}
