import { randomBytes } from 'node:crypto';
import { deadLetterTopic, TOPICS } from '@genasset/contracts';
import { PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, testServices, TopicReader } from '@genasset/testing';
import { HEADERS } from '../src';
import { startProbeApp } from './support/probe-app';
import { migrateProbe } from './support/probe-schema';
import { CONTRACT_RETRY, transportContract } from './support/transport-contract';

// Real processes and a real broker on a 2-core machine: give them time.
jest.setTimeout(180_000);

// Distributed mode: PostgreSQL and the Kafka-protocol broker; dead letters on <topic>.dlt.
transportContract('kafka', async () => {
  const prefix = `kc${randomBytes(3).toString('hex')}`;
  const { kafkaBrokers } = testServices();
  const db = await createTestDatabase('msg_kafka_contract');
  const connection = new PostgresConnection(db.url);
  await migrateProbe(connection);
  const attempts = new Map<string, number>();
  const settled = new Map<string, boolean[]>();
  const dlt = await new TopicReader(deadLetterTopic(TOPICS.platformProbe), { brokers: kafkaBrokers, from: 'beginning' }).start();
  const probe = await startProbeApp({
    connection,
    produce: true,
    // A fresh group per run; it also reads earlier runs' probes, which the handler ignores by prefix.
    consume: { consumer: `probe-sink-${prefix}`, prefix, attempts, settled },
    messaging: { transport: 'kafka', brokers: kafkaBrokers, clientId: 'contract', retry: CONTRACT_RETRY },
    logger: false,
  });
  return {
    prefix,
    probe,
    connection,
    attempts,
    settled,
    async deadLetters() {
      return dlt.messages
        .filter((m) => m.headers[HEADERS.deadLetterConsumer] === `probe-sink-${prefix}`)
        .map((m) => ({ key: m.key, eventId: m.headers[HEADERS.eventId], reason: m.headers[HEADERS.deadLetterReason] }));
    },
    async close() {
      await probe.close();
      await dlt.stop();
      await db.drop();
    },
  };
});
