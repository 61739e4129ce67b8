import { errorMessage, sleep } from '@genasset/contracts';
import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { InboundRecord } from '../core/messages';
import type { ConsumerRegistry } from '../consumer/consumer-registry';
import { EventProcessor } from '../consumer/event-processor';
import { EventServer, type EventServerSettings } from '../consumer/event-server';
import type { HandlerTable } from '../consumer/handler-table';
import { KafkaDeadLetterSink } from './kafka-dead-letter.sink';
import type { KafkaPublisher } from './kafka-publisher';
import { OffsetCommitter } from './offset-committer';
import { whileBeating } from './while-beating';

export interface KafkaServerSettings extends EventServerSettings {
  /** Where a consumer group without committed offsets starts (default: the beginning: no fact is missed). */
  readonly fromBeginning?: boolean;
  /** Prepended to every consumer group id (environments sharing a cluster; isolated test runs). */
  readonly groupPrefix?: string;
  /** Partitions of one consumer processed at the same time (each in its own transactions). */
  readonly partitionsConsumedConcurrently?: number;
  /** Longest time the broker may hold an empty fetch (default 200 ms). */
  readonly fetchMaxWaitMs?: number;
  /** How long the broker waits for a heartbeat before it hands the consumer's partitions to others (default 10 s). */
  readonly sessionTimeoutMs?: number;
  /** How often a consumer commits the offsets it applied (default 1 s; 0: after each applied chunk). See OffsetCommitter. */
  readonly commitIntervalMs?: number;
}

/**
 * NestJS transport strategy over Kafka: one consumer group per consumer name,
 * batches per partition through the EventProcessor, offsets committed by hand
 * only after the transaction that applied the events committed, at most once
 * per `commitIntervalMs` (OffsetCommitter). A crash between the two redelivers
 * events the inbox already knows: they change nothing.
 */
export class KafkaEventServer extends EventServer {
  private readonly consumers = new Map<string, Consumer>();
  private readonly committers = new Map<string, OffsetCommitter>();
  private readonly stopping = new AbortController();
  private readonly fetched = new Set<string>();
  private readonly fetchedWaiters: (() => void)[] = [];
  private starting?: Promise<void>;
  /** Batches being processed: close() lets them finish and commit before disconnecting. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    registry: ConsumerRegistry,
    private readonly kafka: Kafka,
    private readonly publisher: KafkaPublisher,
    private readonly kafkaSettings: KafkaServerSettings,
  ) {
    super(registry, kafkaSettings);
  }

  /**
   * Resolves once every consumer joined its group and completed a first fetch
   * (its start offsets are fixed): from then on nothing produced is missed,
   * even with `fromBeginning: false`.
   */
  whenConsuming(): Promise<void> {
    if (this.table && this.fetched.size >= this.table.consumers().length) return Promise.resolve();
    return new Promise((resolve) => this.fetchedWaiters.push(resolve));
  }

  /** Readiness: every consumer is connected to its group. */
  async check(): Promise<void> {
    const missing = (this.table?.consumers() ?? []).filter((c) => !this.fetched.has(c));
    if (missing.length > 0) throw new Error(`not consuming yet: ${missing.join(', ')}`);
  }

  protected async start(table: HandlerTable): Promise<void> {
    // Consumers connect in the background, retrying while the broker is down:
    // the app (and its outbox writes) must not depend on Kafka being up.
    this.starting = Promise.all(table.consumers().map((name) => this.startConsumer(table, name))).then(() => undefined);
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await this.starting?.catch(() => undefined);
    // The batches in flight finish their current chunk and commit its offset while the
    // consumers still run: once disconnect() has begun, kafkajs skips commitOffsets
    // silently (runner.commitOffsets returns when not running), so the applied events
    // would come again after a restart (tested: libs/runtime/test/lifecycle.int-spec.ts).
    await Promise.allSettled([...this.inFlight]);
    await Promise.all([...this.committers.values()].map((committer) => committer.flush()));
    await Promise.all([...this.consumers.values()].map((c) => c.disconnect().catch(() => undefined)));
    this.consumers.clear();
  }

  private async startConsumer(table: HandlerTable, name: string): Promise<void> {
    const processor = new EventProcessor(this.registry.get(name), table, new KafkaDeadLetterSink(this.publisher), this.processorOptions());
    this.processors.set(name, processor);
    const sessionTimeout = this.sessionTimeoutMs();
    const consumer = this.kafka.consumer({
      groupId: `${this.kafkaSettings.groupPrefix ?? ''}${name}`,
      allowAutoTopicCreation: false,
      sessionTimeout,
      // kafkajs wants a third of the session at most; more often costs a request each time.
      heartbeatInterval: this.heartbeatIntervalMs(),
      maxWaitTimeInMs: this.kafkaSettings.fetchMaxWaitMs ?? 200,
      retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 10_000 },
    });
    const committer = new OffsetCommitter(
      (offsets) => consumer.commitOffsets(offsets),
      this.kafkaSettings.commitIntervalMs ?? 1_000,
      (error, offsets) =>
        this.logger.warn(
          `consumer ${name}: offsets of ${offsets.length} partition(s) not committed, their applied events come again (the inbox drops them): ${errorMessage(error)}`,
        ),
    );
    this.committers.set(name, committer);
    consumer.on(consumer.events.GROUP_JOIN, () => committer.forget());
    let crashes = 0;
    consumer.on(consumer.events.FETCH, () => {
      crashes = 0;
      this.markFetched(name);
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.fetched.delete(name);
      // kafkajs restarts a consumer only after retriable errors. After any other (a group
      // protocol error, a commit refused during a rebalance) it stays stopped while the
      // process runs on and never consumes again: run it again, backing off, until close().
      const restart = !payload.restart && !this.stopping.signal.aborted;
      this.logger.error(
        `consumer ${name} crashed (${payload.restart ? 'kafkajs restarts it' : restart ? 'restarting it' : 'stopped'}): ${errorMessage(payload.error)}`,
      );
      if (restart)
        void sleep(Math.min(30_000, 1_000 * 2 ** crashes++), { signal: this.stopping.signal })
          .then(() => this.runConsumer(consumer, table, name, processor, committer))
          .catch(() => undefined);
    });
    await this.runConsumer(consumer, table, name, processor, committer);
  }

  /** connect, subscribe, run: retried with backoff until it runs or close() is called. */
  private async runConsumer(
    consumer: Consumer,
    table: HandlerTable,
    name: string,
    processor: EventProcessor,
    committer: OffsetCommitter,
  ): Promise<void> {
    for (let failures = 0; !this.stopping.signal.aborted; failures++) {
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: table.topicsOf(name), fromBeginning: this.kafkaSettings.fromBeginning ?? true });
        await consumer.run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: this.kafkaSettings.partitionsConsumedConcurrently ?? 3,
          eachBatch: (payload) => this.onBatch(processor, committer, payload),
        });
        this.consumers.set(name, consumer);
        this.logger.log(`consumer ${name} consuming ${table.topicsOf(name).join(', ')}`);
        return;
      } catch (error) {
        this.logger.warn(`consumer ${name} could not start (${failures + 1}x): ${errorMessage(error)}`);
        await consumer.disconnect().catch(() => undefined);
        await sleep(Math.min(10_000, 500 * 2 ** failures), { signal: this.stopping.signal });
      }
    }
  }

  private async onBatch(processor: EventProcessor, committer: OffsetCommitter, payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    // Shutting down: leave the batch for redelivery (nothing of it is committed).
    if (this.stopping.signal.aborted) return;
    const records = batch.messages.map((m) => toRecord(batch.topic, batch.partition, m));
    const work = processor.process(records, {
      running: () => isRunning() && !isStale() && !this.stopping.signal.aborted,
      signal: this.stopping.signal,
      committed: async (last) => {
        resolveOffset(last.offset);
        await committer.applied(batch.topic, batch.partition, (BigInt(last.offset) + 1n).toString());
        await heartbeat();
      },
    });
    this.inFlight.add(work);
    try {
      await whileBeating(work, heartbeat, this.heartbeatIntervalMs());
    } catch (error) {
      // A retry backoff cut short by close(): the event stays uncommitted and comes again.
      if (!this.stopping.signal.aborted) throw error;
    } finally {
      this.inFlight.delete(work);
    }
  }

  private sessionTimeoutMs(): number {
    return this.kafkaSettings.sessionTimeoutMs ?? 10_000;
  }

  private heartbeatIntervalMs(): number {
    return Math.min(3_000, Math.floor(this.sessionTimeoutMs() / 3));
  }

  private markFetched(name: string): void {
    if (this.fetched.has(name)) return;
    this.fetched.add(name);
    if (this.table && this.fetched.size >= this.table.consumers().length) {
      for (const resolve of this.fetchedWaiters.splice(0)) resolve();
    }
  }
}

function toRecord(topic: string, partition: number, message: KafkaMessage): InboundRecord {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString() : null,
    value: message.value,
    headers: decodeHeaders(message.headers),
  };
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) result[name] = first.toString();
  }
  return result;
}
