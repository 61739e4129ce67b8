import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { TOPICS } from '@genasset/contracts';
import { waitFor } from '@genasset/testing';
import type { Json } from './asset-fixtures';

export interface Fact {
  id: string;
  type: string;
  key: string;
  data: Json;
}

/** Reads asset.events.v1 from the beginning with a fresh group, for assertions on published facts. */
export class FactReader {
  readonly facts: Fact[] = [];
  private consumer?: Consumer;

  async start(): Promise<this> {
    const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
    const kafka = new Kafka({ brokers, clientId: 'asset-fact-reader', logLevel: logLevel.NOTHING });
    this.consumer = kafka.consumer({ groupId: `asset-facts-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 100 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [TOPICS.assetEvents], fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = JSON.parse(message.value!.toString()) as Fact;
        this.facts.push({ id: envelope.id, type: envelope.type, key: message.key!.toString(), data: envelope.data });
      },
    });
    return this;
  }

  /** Waits until `count` facts of `type` about `assetId` arrived, and returns them. */
  async waitFor(type: string, assetId: string, count = 1): Promise<Fact[]> {
    const match = () => this.facts.filter((f) => f.type === type && f.key === assetId);
    await waitFor(async () => match().length >= count, { timeoutMs: 20_000, intervalMs: 50, what: `${count}× ${type} for ${assetId}` });
    return match();
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
