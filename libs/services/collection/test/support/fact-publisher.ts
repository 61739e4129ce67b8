import { Kafka, logLevel, type Producer } from 'kafkajs';
import { TOPICS, type EventEnvelope } from '@genasset/contracts';
import { testServices } from '@genasset/testing';

/**
 * Puts asset facts on the real broker behind the producer's back, as a broker
 * redelivery (the same envelope twice) or a fact racing a request would arrive.
 */
export class FactPublisher {
  private producer?: Producer;

  async publish(envelope: EventEnvelope): Promise<void> {
    if (!this.producer) {
      this.producer = new Kafka({
        brokers: testServices().kafkaBrokers,
        clientId: 'collection-test-facts',
        logLevel: logLevel.NOTHING,
      }).producer();
      await this.producer.connect();
    }
    await this.producer.send({
      topic: TOPICS.assetEvents,
      acks: -1,
      messages: [{ key: envelope.key, value: JSON.stringify(envelope) }],
    });
  }

  async close(): Promise<void> {
    await this.producer?.disconnect();
  }
}
