import { Kafka, logLevel, type Producer } from 'kafkajs';

/** A bare producer for tests that put bytes on a topic behind the outbox's back (duplicates, garbage). */
export async function directProducer(brokers: string[]): Promise<Producer> {
  const producer = new Kafka({ brokers, clientId: 'test-direct', logLevel: logLevel.NOTHING }).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  return producer;
}
