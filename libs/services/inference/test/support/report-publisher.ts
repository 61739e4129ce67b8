import { Kafka, logLevel, type Producer } from 'kafkajs';
import { createEnvelope, type EventDefinition, type EventEnvelope } from '@genasset/contracts';
import { testServices } from '@genasset/testing';

/** Publishes facts to the real broker exactly as a service's relay does (envelope as value, key as key). */
export class FactPublisher {
  private producer?: Producer;

  async start(): Promise<this> {
    const kafka = new Kafka({
      brokers: testServices().kafkaBrokers,
      clientId: 'inference-test',
      logLevel: logLevel.NOTHING,
    });
    this.producer = kafka.producer();
    await this.producer.connect();
    return this;
  }

  async publish<T extends object>(
    definition: EventDefinition<string, T>,
    data: T,
  ): Promise<EventEnvelope<T>> {
    const envelope = createEnvelope(definition, data, { producer: 'inference-test' });
    await this.producer!.send({
      topic: definition.topic,
      messages: [{ key: envelope.key, value: JSON.stringify(envelope) }],
    });
    return envelope;
  }

  async stop(): Promise<void> {
    await this.producer?.disconnect();
  }
}
