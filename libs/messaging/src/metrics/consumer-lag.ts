import type { Admin } from 'kafkajs';
import type { ConsumerLag } from './messaging.metrics';

/**
 * Lag of consumer groups from the broker's own numbers: committed offsets
 * (OffsetFetch) against each partition's high watermark (ListOffsets). Read at
 * scrape time, so a consumer stuck in a handler shows its lag growing — which
 * counters kept by the consumer itself could not.
 */
export async function readConsumerLag(
  admin: Admin,
  groups: readonly { group: string; topics: readonly string[] }[],
): Promise<ConsumerLag[]> {
  const topics = [...new Set(groups.flatMap((g) => g.topics))];
  const ends = new Map<string, Map<number, { high: bigint; low: bigint }>>();
  await Promise.all(
    topics.map(async (topic) => {
      const offsets = await admin.fetchTopicOffsets(topic);
      ends.set(
        topic,
        new Map(offsets.map((o) => [o.partition, { high: BigInt(o.high), low: BigInt(o.low) }])),
      );
    }),
  );
  const result: ConsumerLag[] = [];
  for (const { group, topics: groupTopics } of groups) {
    if (groupTopics.length === 0) continue;
    const committed = await admin.fetchOffsets({ groupId: group, topics: [...groupTopics] });
    for (const { topic, partitions } of committed) {
      for (const { partition, offset } of partitions) {
        const end = ends.get(topic)?.get(partition);
        if (!end) continue;
        // Nothing committed yet: the group starts from the beginning (fromBeginning), so all of it is lag.
        const from = BigInt(offset) < 0n ? end.low : BigInt(offset);
        result.push({ group, topic, partition, lag: Number(end.high > from ? end.high - from : 0n) });
      }
    }
  }
  return result;
}
