import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';

export interface ReadMessage {
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

/** Collects every message of a topic from its beginning (fresh group), for assertions. */
export class TopicReader {
  readonly messages: ReadMessage[] = [];
  private consumer?: Consumer;

  constructor(
    private readonly brokers: string[],
    private readonly topic: string,
  ) {}

  async start(): Promise<this> {
    const kafka = new Kafka({ brokers: this.brokers, clientId: 'topic-reader', logLevel: logLevel.NOTHING });
    this.consumer = kafka.consumer({ groupId: `reader-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 100 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ partition, message }) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) if (v !== undefined) headers[k] = String(Array.isArray(v) ? v[0] : v);
        this.messages.push({ partition, offset: message.offset, key: message.key?.toString() ?? null, value: message.value?.toString() ?? null, headers });
      },
    });
    return this;
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
