import { randomBytes } from 'node:crypto';
import { DEAD_LETTER_SUFFIX, deadLetterTopic, TOPICS } from '@genasset/contracts';
import type { IHeaders, KafkaMessage } from 'kafkajs';
import { HEADERS } from '../core/messages';
import { createKafka } from './kafka-client';

export interface DeadLetterFilter {
  /** Original topics whose `<topic>.dlt` is read (default: every platform topic). */
  readonly topics?: readonly string[];
  readonly eventTypes?: readonly string[];
  readonly eventIds?: readonly string[];
  /** Only letters of this consumer (x-dead-letter-consumer). */
  readonly consumer?: string;
  /** Dead-lettered at or after / before (the dead-letter message's timestamp). */
  readonly since?: Date;
  readonly until?: Date;
}

export interface ReplayOptions extends DeadLetterFilter {
  readonly brokers: readonly string[];
  /** List what would be replayed; publish nothing. */
  readonly dryRun?: boolean;
  /** Longest wait for the dead-letter topics to be read to their end (default 60 s). */
  readonly timeoutMs?: number;
}

export interface DeadLetterEntry {
  readonly deadLetterTopic: string;
  readonly partition: number;
  readonly offset: string;
  readonly deadLetteredAt: string;
  readonly originalTopic: string;
  readonly eventId?: string;
  readonly eventType?: string;
  readonly consumer?: string;
  readonly reason?: string;
  /** Not replayed: a letter for the same event and topic was already taken (several consumers failed it). */
  readonly duplicate?: boolean;
}

export interface ReplayResult {
  /** Every matching letter, in topic/partition/offset order. */
  readonly letters: DeadLetterEntry[];
  /** Messages republished (0 on a dry run). */
  readonly replayed: number;
}

/** Headers the dead-letter sink adds; everything else is the original message's and is kept. */
const DEAD_LETTER_HEADERS: ReadonlySet<string> = new Set([
  HEADERS.deadLetterReason,
  HEADERS.deadLetterConsumer,
  HEADERS.originalTopic,
  HEADERS.originalPartition,
  HEADERS.originalOffset,
]);

/**
 * Reads dead-letter topics from their beginning up to their end at the time
 * of the call (later letters are left for the next run), keeps the letters
 * matching the filter, and republishes each original message — same key,
 * bytes and headers, minus the dead-letter headers — to its original topic.
 * One message per (topic, event) even when several consumers dead-lettered
 * it. Every consumer group of that topic receives the replay; the ones that
 * had applied the event find it in their inbox and skip it, so replaying is
 * safe to repeat. Reads with a throwaway consumer group that commits nothing.
 */
export async function replayDeadLetters(options: ReplayOptions): Promise<ReplayResult> {
  const kafka = createKafka({ brokers: options.brokers, clientId: 'genasset-dlt-replay' });
  const topics = (options.topics?.length ? options.topics : Object.values(TOPICS)).map((t) =>
    t.endsWith(DEAD_LETTER_SUFFIX) ? t : deadLetterTopic(t),
  );
  const read = await readToEnd(kafka, topics, options.timeoutMs ?? 60_000);
  const letters: DeadLetterEntry[] = [];
  const toSend = new Map<
    string,
    { key: Buffer | null; value: Buffer | null; headers: Record<string, string> }[]
  >();
  const taken = new Set<string>();
  for (const { topic, partition, message } of read) {
    const headers = decodeHeaders(message.headers);
    const entry: DeadLetterEntry = {
      deadLetterTopic: topic,
      partition,
      offset: message.offset,
      deadLetteredAt: new Date(Number(message.timestamp)).toISOString(),
      originalTopic: headers[HEADERS.originalTopic] ?? topic.slice(0, -DEAD_LETTER_SUFFIX.length),
      eventId: headers[HEADERS.eventId],
      eventType: headers[HEADERS.eventType],
      consumer: headers[HEADERS.deadLetterConsumer],
      reason: headers[HEADERS.deadLetterReason],
    };
    if (!matches(entry, options)) continue;
    const dedupe = entry.eventId ? `${entry.originalTopic}\u0000${entry.eventId}` : undefined;
    const duplicate = dedupe !== undefined && taken.has(dedupe);
    if (dedupe) taken.add(dedupe);
    letters.push(duplicate ? { ...entry, duplicate } : entry);
    if (duplicate) continue;
    const original = Object.fromEntries(
      Object.entries(headers).filter(([name]) => !DEAD_LETTER_HEADERS.has(name)),
    );
    const list = toSend.get(entry.originalTopic) ?? [];
    list.push({ key: message.key, value: message.value, headers: original });
    toSend.set(entry.originalTopic, list);
  }
  if (options.dryRun || toSend.size === 0) return { letters, replayed: 0 };

  const producer = kafka.producer({
    idempotent: false,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  try {
    // In dead-letter order per topic: per key, replays keep the order the letters had.
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...toSend].map(([topic, messages]) => ({ topic, messages })),
    });
  } finally {
    await producer.disconnect();
  }
  return { letters, replayed: [...toSend.values()].reduce((n, l) => n + l.length, 0) };
}

function matches(entry: DeadLetterEntry, filter: DeadLetterFilter): boolean {
  if (filter.eventTypes?.length && !filter.eventTypes.includes(entry.eventType ?? '')) return false;
  if (filter.eventIds?.length && !filter.eventIds.includes(entry.eventId ?? '')) return false;
  if (filter.consumer && entry.consumer !== filter.consumer) return false;
  const at = Date.parse(entry.deadLetteredAt);
  if (filter.since && at < filter.since.getTime()) return false;
  if (filter.until && at >= filter.until.getTime()) return false;
  return true;
}

interface ReadMessage {
  topic: string;
  partition: number;
  message: KafkaMessage;
}

/** Every message of the topics from the beginning up to each partition's end offset at the start. */
async function readToEnd(
  kafka: ReturnType<typeof createKafka>,
  topics: readonly string[],
  timeoutMs: number,
): Promise<ReadMessage[]> {
  const admin = kafka.admin();
  await admin.connect();
  const remaining = new Map<string, bigint>();
  try {
    for (const topic of topics) {
      for (const { partition, high, low } of await admin.fetchTopicOffsets(topic)) {
        if (BigInt(high) > BigInt(low)) remaining.set(`${topic}:${partition}`, BigInt(high));
      }
    }
  } finally {
    await admin.disconnect();
  }
  const messages: ReadMessage[] = [];
  if (remaining.size === 0) return messages;

  const consumer = kafka.consumer({
    groupId: `genasset-dlt-replay-${randomBytes(6).toString('hex')}`,
    maxWaitTimeInMs: 200,
  });
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...topics], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const key = `${batch.topic}:${batch.partition}`;
        const end = remaining.get(key);
        if (end === undefined) return;
        for (const message of batch.messages) {
          if (BigInt(message.offset) >= end) break;
          messages.push({ topic: batch.topic, partition: batch.partition, message });
          if (BigInt(message.offset) + 1n >= end) remaining.delete(key);
        }
        if (remaining.size === 0) finish();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `dead-letter topics not read to their end within ${timeoutMs} ms (left: ${[...remaining.keys()].join(', ')})`,
            ),
          ),
        timeoutMs,
      );
    });
    await Promise.race([done, timeout]).finally(() => clearTimeout(timer));
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return messages.sort((a, b) =>
    a.topic !== b.topic
      ? a.topic.localeCompare(b.topic)
      : a.partition !== b.partition
        ? a.partition - b.partition
        : Number(BigInt(a.message.offset) - BigInt(b.message.offset)),
  );
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) result[name] = first.toString();
  }
  return result;
}
