import { allTopics, DEFAULT_PARTITIONS } from '@genasset/contracts';
import { createKafka } from './kafka-client';

export interface ProvisionOptions {
  readonly partitions?: number;
  /** Default: the cluster's default replication factor. */
  readonly replicationFactor?: number;
}

/**
 * Creates the platform's missing topics (and their `.dlt` companions) on a real
 * Kafka cluster and returns the names it created: the `topics create` CLI
 * command, run once per environment. Services never create topics at start
 * (producers and consumers refuse auto-creation), so a typo cannot silently
 * create a topic nobody reads. Does not work on the librdkafka mock broker (no
 * Admin API); the test runner creates topics there.
 */
export async function provisionTopics(
  brokers: readonly string[],
  topics: readonly string[] = allTopics(),
  options: ProvisionOptions | number = {},
): Promise<string[]> {
  const { partitions = DEFAULT_PARTITIONS, replicationFactor } = typeof options === 'number' ? { partitions: options } : options;
  const admin = createKafka({ brokers, clientId: 'genasset-topics' }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: replicationFactor ?? -1 })),
      });
    }
    return missing;
  } finally {
    await admin.disconnect();
  }
}
