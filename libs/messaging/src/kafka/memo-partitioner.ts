import type { ICustomPartitioner, PartitionerArgs } from 'kafkajs';

/** Keys remembered per topic before the memory is dropped and rebuilt. */
const MAX_KEYS_PER_TOPIC = 10_000;

/**
 * Wraps a partitioner so that a keyed message's partition is computed once per
 * key and topic size, then remembered: the same partition as the wrapped
 * partitioner by construction, for partitioners where a keyed message without
 * an explicit partition lands by its key and the topic's partition count
 * alone (kafkajs' DefaultPartitioner and LegacyPartitioner).
 *
 * Why: kafkajs' default partitioner filters the topic's partition list and
 * hashes the key (a fresh Buffer, murmur2) for every message; that was one of
 * the larger items of the outbox relay's CPU per event (bench/outbox), and
 * an aggregate's events share its key, so most lookups hit.
 */
export function memoizedPartitioner(create: ICustomPartitioner): ICustomPartitioner {
  return () => {
    const partition = create();
    const memory = new Map<string, { partitions: number; keys: Map<string, number> }>();
    return (args: PartitionerArgs) => {
      const { topic, partitionMetadata, message } = args;
      const key = message.key;
      if (typeof key !== 'string' || (message.partition !== undefined && message.partition !== null)) return partition(args);
      let topicMemory = memory.get(topic);
      if (!topicMemory || topicMemory.partitions !== partitionMetadata.length || topicMemory.keys.size >= MAX_KEYS_PER_TOPIC) {
        topicMemory = { partitions: partitionMetadata.length, keys: new Map() };
        memory.set(topic, topicMemory);
      }
      let chosen = topicMemory.keys.get(key);
      if (chosen === undefined) {
        chosen = partition(args);
        topicMemory.keys.set(key, chosen);
      }
      return chosen;
    };
  };
}
