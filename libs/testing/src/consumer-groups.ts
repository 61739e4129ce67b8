import { errorMessage } from '@genasset/contracts';
import { Kafka, logLevel, type Admin } from 'kafkajs';

/**
 * Commits, for each consumer group the stack will use, the current end of every topic.
 *
 * The shared test topics hold earlier tests' facts: fresh groups starting from the beginning
 * (the production default) would replay them, and `KAFKA_FROM_BEGINNING=false` is no fix here
 * either: with two replicas, a partition handed to the second one at a rebalance, before the
 * first committed anything on it, restarts from the *latest* offset and skips what was produced
 * meanwhile. With offsets committed up front the apps run with the production setting and start
 * exactly at "now" on every partition, whoever owns it.
 *
 * The commit is a "simple" one (generation -1, no member), which Kafka accepts for a group with
 * no active members, as does the mock broker. The mock broker has no DescribeGroups, which
 * kafkajs's admin.setOffsets needs; the earlier way, a short-lived member of each group, left
 * that member in the group until its session expired, and an app joining meanwhile shared its
 * first rebalances with it: partitions of the app's topics went to the dead member or to topics
 * nobody consumed, and a harness's jobs never finished (CI logs: "Consumer group received
 * unsubscribed topics"). No member joins now, so there is nothing to wait out either.
 */
export async function primeConsumerGroups(
  brokers: string[],
  groupIds: string[],
  only?: readonly string[],
): Promise<void> {
  const kafka = new Kafka({ clientId: 'distributed-test', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  let topics: string[];
  const ends = new Map<string, { partition: number; offset: string }[]>();
  try {
    topics = only ? [...only] : (await admin.listTopics()).filter((t) => !t.startsWith('__'));
    // One topic at a time: concurrent calls race kafkajs' metadata refresh, and a topic whose
    // partitions are not in the metadata yet comes back empty (kafkajs then throws a TypeError).
    for (const topic of topics)
      ends.set(
        topic,
        (await topicEnds(admin, topic)).map((p) => ({ partition: p.partition, offset: p.high })),
      );
  } finally {
    await admin.disconnect();
  }
  const cluster = clusterOf(kafka);
  await cluster.connect();
  try {
    const commit = [...ends].map(([topic, partitions]) => ({ topic, partitions }));
    await Promise.all(groupIds.map((groupId) => simpleCommit(cluster, groupId, commit)));
  } finally {
    await cluster.disconnect();
  }
}

interface TopicOffsets {
  topic: string;
  partitions: { partition: number; offset: string }[];
}

/** The parts of kafkajs' (private) Cluster the simple commit uses. */
interface KafkajsCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  findGroupCoordinator(group: { groupId: string }): Promise<{
    offsetCommit(request: {
      groupId: string;
      groupGenerationId: number;
      memberId: string;
      topics: TopicOffsets[];
    }): Promise<{ responses: { topic: string; partitions: { partition: number; errorCode: number }[] }[] }>;
  }>;
}

/**
 * kafkajs builds its clients on a Cluster it keeps behind a private symbol and offers no
 * commit outside a group membership; kafkajs 2.2 is the last release, so this cannot move
 * under us. Fails loudly if it ever does.
 */
function clusterOf(kafka: Kafka): KafkajsCluster {
  // An instance property, set in kafkajs' constructor.
  const holder = kafka as unknown as Record<symbol, unknown>;
  const key = Object.getOwnPropertySymbols(holder).find(
    (s) => s.description === 'private:Kafka:createCluster',
  );
  const create = key ? holder[key] : undefined;
  if (typeof create !== 'function')
    throw new Error('kafkajs has no private createCluster: priming needs updating');
  return (create as (options: object) => KafkajsCluster).call(kafka, {});
}

/** Commits `topics` for `groupId` without joining it; up to 5 tries (coordinator not ready yet). */
async function simpleCommit(cluster: KafkajsCluster, groupId: string, topics: TopicOffsets[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const coordinator = await cluster.findGroupCoordinator({ groupId });
      const { responses } = await coordinator.offsetCommit({
        groupId,
        groupGenerationId: -1,
        memberId: '',
        topics,
      });
      const failed = responses.flatMap((r) =>
        r.partitions.filter((p) => p.errorCode !== 0).map((p) => `${r.topic}/${p.partition}: ${p.errorCode}`),
      );
      if (failed.length > 0) throw new Error(`error codes ${failed.join(', ')}`);
      return;
    } catch (error) {
      if (attempt >= 5)
        throw new Error(`priming ${groupId}: ${errorMessage(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** The end offsets of one topic, asked again a few times if kafkajs' metadata misses it. */
async function topicEnds(admin: Admin, topic: string): Promise<{ partition: number; high: string }[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (error) {
      if (attempt >= 10)
        throw new Error(`end offsets of ${topic}: ${errorMessage(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
}
