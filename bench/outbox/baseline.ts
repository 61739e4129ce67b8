import { randomBytes } from 'node:crypto';
import { TOPICS } from '@genasset/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { probeEnvelope, rate } from './payload';

/**
 * Bare kafkajs: produce N messages of the bench's size and consume them with
 * one consumer group (eachBatch, offsets committed by kafkajs). No database:
 * the ceiling the real path is compared with, measured on the same broker in
 * the same run.
 */
export async function measureBaseline(brokers: string[], events: number, subjects: number): Promise<{ eventsPerSecond: number; ms: number }> {
  const prefix = `bb${randomBytes(3).toString('hex')}`;
  const kafka = new Kafka({ brokers, clientId: 'bench-baseline', logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `bench-baseline-${prefix}`, maxWaitTimeInMs: 100 });
  const producer = kafka.producer({ allowAutoTopicCreation: false, maxInFlightRequests: 1 });
  await Promise.all([consumer.connect(), producer.connect()]);

  let received = 0;
  let done!: () => void;
  const allReceived = new Promise<void>((r) => (done = r));
  let fetched!: () => void;
  const firstFetch = new Promise<void>((r) => (fetched = r));
  consumer.on(consumer.events.FETCH, () => fetched());
  await consumer.subscribe({ topics: [TOPICS.platformProbe], fromBeginning: false });
  await consumer.run({
    partitionsConsumedConcurrently: 3,
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) if (m.key?.toString().startsWith(prefix)) received++;
      if (received >= events) done();
    },
  });
  await firstFetch;

  const started = Date.now();
  const chunk = 500;
  for (let i = 0; i < events; i += chunk) {
    const messages = [];
    for (let j = i; j < Math.min(events, i + chunk); j++) {
      const e = probeEnvelope(prefix, subjects, j);
      messages.push({ key: e.key, value: JSON.stringify(e) });
    }
    await producer.send({ topic: TOPICS.platformProbe, acks: -1, messages });
  }
  await allReceived;
  const ms = Date.now() - started;
  await Promise.all([consumer.disconnect(), producer.disconnect()]);
  return { eventsPerSecond: rate(events, ms), ms };
}
