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
 * The commit goes through a short-lived member of each group: the mock broker has no
 * DescribeGroups, which kafkajs's admin.setOffsets needs. That member is waited out before this
 * returns (PRIMING_SESSION_MS): the mock broker keeps a member that left until its session
 * expires, and an app joining meanwhile shares its first rebalances with it. The priming member
 * subscribes to every topic, so it can be handed partitions of the app's topics that nobody then
 * consumes: the CI runs where one harness's jobs never finished logged such shared rebalances
 * ("Consumer group received unsubscribed topics", SyncGroup "group is rebalancing").
 */
/** The priming member's session: short, since every harness start waits it out. */
const PRIMING_SESSION_MS = 4_000;

export async function primeConsumerGroups(
  brokers: string[],
  groupIds: string[],
  only?: readonly string[],
): Promise<void> {
  const kafka = new Kafka({ clientId: 'distributed-test', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  let topics: string[];
  let offsets: { topic: string; partition: number; offset: string }[];
  try {
    topics = only ? [...only] : (await admin.listTopics()).filter((t) => !t.startsWith('__'));
    // One topic at a time: concurrent calls race kafkajs' metadata refresh, and a topic whose
    // partitions are not in the metadata yet comes back empty (kafkajs then throws a TypeError).
    offsets = [];
    for (const topic of topics)
      for (const p of await topicEnds(admin, topic))
        offsets.push({ topic, partition: p.partition, offset: p.high });
  } finally {
    await admin.disconnect();
  }
  await Promise.all(groupIds.map((groupId) => commitWithRetries(kafka, groupId, topics, offsets)));
  // Gone for the mock broker too: its session has run out (plus a margin for its timer).
  await new Promise((resolve) => setTimeout(resolve, PRIMING_SESSION_MS + 500));
}

/**
 * Joins `groupId` with a short-lived member and commits `offsets`. On a loaded machine the join
 * can be slow and the commit can meet a rebalance: up to 3 tries, each bounded, before failing
 * with the reason (rather than hanging the test that primes).
 */
async function commitWithRetries(
  kafka: Kafka,
  groupId: string,
  topics: string[],
  offsets: { topic: string; partition: number; offset: string }[],
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const consumer = kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      // disconnect() waits for the fetch in flight (kafkajs' default wait: 5 s).
      maxWaitTimeInMs: 100,
      // The mock broker holds the app's first join for about this member's session timeout
      // (less 1 s) even after it left: 30 s by default, 3 s with this.
      sessionTimeout: PRIMING_SESSION_MS,
      heartbeatInterval: 1_000,
    });
    let timer: NodeJS.Timeout | undefined;
    const joined = new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.GROUP_JOIN, () => resolve());
      timer = setTimeout(() => reject(new Error(`no group join within 30 s`)), 30_000);
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: false });
      await consumer.run({ autoCommit: false, eachBatch: async () => undefined });
      await joined;
      await consumer.commitOffsets(offsets);
      return;
    } catch (error) {
      if (attempt >= 3)
        throw new Error(`priming ${groupId}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
      joined.catch(() => undefined);
      await consumer.disconnect().catch(() => undefined);
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
        throw new Error(`end offsets of ${topic}: ${error instanceof Error ? error.message : String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
}
