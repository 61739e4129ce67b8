import { randomBytes } from 'node:crypto';
import { Partitioners, type PartitionerArgs } from 'kafkajs';
import { memoizedPartitioner } from './memo-partitioner';

const metadata = (n: number) =>
  Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader: partitionId % 3, partitionErrorCode: 0, replicas: [], isr: [] }));

describe('memoizedPartitioner', () => {
  const plain = Partitioners.DefaultPartitioner();
  const memo = memoizedPartitioner(Partitioners.DefaultPartitioner)();
  const args = (key: string | null, partitions: number, topic = 't', partition?: number): PartitionerArgs => ({
    topic,
    partitionMetadata: metadata(partitions),
    message: { key, value: 'v', ...(partition === undefined ? {} : { partition }) },
  });

  it('puts every key where the wrapped partitioner does, on first use and when remembered', () => {
    const keys = Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? `job_${randomBytes(8).toString('hex')}` : `subject-${i % 40}`));
    for (const partitions of [6, 3, 6]) {
      for (let round = 0; round < 2; round++) {
        for (const key of keys) expect(memo(args(key, partitions))).toBe(plain(args(key, partitions)));
      }
    }
  });

  it('keeps topics apart and honours explicit partitions', () => {
    expect(memo(args('k', 6, 'a'))).toBe(plain(args('k', 6, 'a')));
    expect(memo(args('k', 2, 'b'))).toBe(plain(args('k', 2, 'b')));
    expect(memo(args('k', 6, 'a', 5))).toBe(5);
  });

  it('leaves unkeyed messages to the wrapped partitioner', () => {
    const partitions = new Set(Array.from({ length: 50 }, () => memo(args(null, 6))));
    expect(partitions.size).toBeGreaterThan(1);
  });
});
