import {
  createEnvelope,
  CreditThresholdCrossed,
  type CreditThresholdCrossedData,
  type EventDefinition,
  type EventEnvelope,
  type JobLifecycleData,
} from '@genasset/contracts';
import { createKafka } from '@genasset/messaging';
import { testServices } from '@genasset/testing';
import type { Producer } from 'kafkajs';

/**
 * Publishes facts exactly as job-service's outbox relay will: the envelope as
 * JSON on the definition's topic, key = aggregate id, envelope headers. Until
 * job-service emits these facts, the webhook tests drive intake through it.
 */
export class FactPublisher {
  private constructor(private readonly producer: Producer) {}

  static async connect(): Promise<FactPublisher> {
    const kafka = createKafka({ brokers: testServices().kafkaBrokers, clientId: 'webhook-tests' });
    const producer = kafka.producer({
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
    await producer.connect();
    return new FactPublisher(producer);
  }

  async job(
    definition: EventDefinition<string, JobLifecycleData>,
    data: JobLifecycleData,
  ): Promise<EventEnvelope<JobLifecycleData>> {
    return this.send(definition, createEnvelope(definition, data, { producer: 'job-service' }));
  }

  async creditAlert(data: CreditThresholdCrossedData): Promise<EventEnvelope<CreditThresholdCrossedData>> {
    return this.send(
      CreditThresholdCrossed,
      createEnvelope(CreditThresholdCrossed, data, { producer: 'job-service' }),
    );
  }

  /** Sends an envelope again, unchanged (a redelivery: same id). */
  async send<T extends object>(
    definition: EventDefinition<string, T>,
    envelope: EventEnvelope<T>,
  ): Promise<EventEnvelope<T>> {
    await this.producer.send({
      topic: definition.topic,
      acks: -1,
      messages: [{ key: envelope.key, value: JSON.stringify(envelope) }],
    });
    return envelope;
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }
}
