import { errorMessage } from '@genasset/contracts';
import { CompressionTypes, Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import type { OutboundMessage, Publisher } from '../core/messages';
import { memoizedPartitioner } from './memo-partitioner';

export interface RawMessage {
  readonly key: string | null;
  readonly value: Buffer | string | null;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Publishes to Kafka with acks from all in-sync replicas. Not idempotent (the
 * test broker does not support it): a retried send may duplicate, which the
 * consumers' inbox absorbs; `maxInFlightRequests: 1` keeps a retry from
 * reordering a partition.
 */
export class KafkaPublisher implements Publisher {
  readonly deliversInProcess = false;
  private readonly producer: Producer;
  private connecting?: Promise<void>;
  private lastError?: string;

  constructor(kafka: Kafka) {
    this.producer = kafka.producer({
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // The Java client's murmur2 partitioner (kafkajs' default since v2), chosen explicitly: a key
      // lands on the same partition whichever client produced it, and kafkajs stops warning at start.
      // Remembered per key (memo-partitioner.ts): the same partitions, without a hash per message.
      createPartitioner: memoizedPartitioner(Partitioners.DefaultPartitioner),
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2_000 },
    });
    this.producer.on(this.producer.events.DISCONNECT, () => {
      this.connecting = undefined;
    });
  }

  /**
   * Events go out in structured mode: key and value only. The envelope in the
   * value already carries what the row's headers repeat (id, type, producer,
   * trace context), and kafkajs encodes and decodes each header as a record
   * of its own: the three per event cost ~15 % of the event path's CPU in
   * bench/outbox (relay and consumer). Dead letters get their own headers
   * (KafkaDeadLetterSink).
   */
  async publish(messages: readonly OutboundMessage[]): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const m of messages) {
      const list = byTopic.get(m.topic) ?? [];
      byTopic.set(m.topic, list);
      list.push({ key: m.key, value: m.value });
    }
    await this.send(byTopic);
  }

  /** Sends messages as they are (dead letters keep the original bytes). */
  async sendRaw(topic: string, messages: readonly RawMessage[]): Promise<void> {
    await this.send(new Map([[topic, messages.map((m) => ({ key: m.key, value: m.value, headers: { ...m.headers } }))]]));
  }

  async check(): Promise<void> {
    await this.connect();
    if (this.lastError) throw new Error(`last publish failed: ${this.lastError}`);
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
    this.connecting = undefined;
  }

  private async send(byTopic: Map<string, Message[]>): Promise<void> {
    if (byTopic.size === 0) return;
    try {
      await this.connect();
      await this.producer.sendBatch({
        acks: -1,
        compression: CompressionTypes.None,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
      this.lastError = undefined;
    } catch (error) {
      this.lastError = errorMessage(error);
      throw error;
    }
  }

  private connect(): Promise<void> {
    if (!this.connecting) {
      const attempt = this.producer.connect();
      this.connecting = attempt;
      attempt.catch(() => {
        if (this.connecting === attempt) this.connecting = undefined;
      });
    }
    return this.connecting;
  }
}
