import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type KafkaMessage } from 'kafkajs';
import type { EventEnvelope } from '@genasset/contracts';
import { primeConsumerGroups } from './consumer-groups';
import { testServices } from './test-services';
import { waitFor } from './wait-for';

/** One message read from the topic, as the broker delivered it. */
export class TopicMessage<T = Record<string, unknown>> {
  readonly offset: string;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Record<string, string>;
  private parsed?: EventEnvelope<T>;

  constructor(
    readonly partition: number,
    message: KafkaMessage,
  ) {
    this.offset = message.offset;
    this.key = message.key?.toString() ?? null;
    this.value = message.value?.toString() ?? null;
    this.headers = {};
    for (const [k, v] of Object.entries(message.headers ?? {}))
      if (v !== undefined) this.headers[k] = String(Array.isArray(v) ? v[0] : v);
  }

  /** The value as an event envelope; parsed when first asked (a dead letter's value may not be JSON). */
  get envelope(): EventEnvelope<T> {
    this.parsed ??= JSON.parse(this.value ?? 'null') as EventEnvelope<T>;
    return this.parsed;
  }

  /** The envelope's type, or undefined where the value is no envelope. */
  get type(): string | undefined {
    try {
      return this.envelope?.type;
    } catch {
      return undefined;
    }
  }
}

export interface TopicReaderOptions<T = Record<string, unknown>> {
  /**
   * `now` (the default): the reader's group is primed at the topic's end, so it reads what comes
   * after `start()` returns. `beginning`: it also reads what the topic already holds.
   */
  from?: 'now' | 'beginning';
  /** The broker; the shared test broker unless told. */
  brokers?: string[];
  clientId?: string;
  /** Called for each message, after it is recorded (a fake worker answering what it reads). */
  onMessage?: (message: TopicMessage<T>) => Promise<void>;
  /** How long `waitFor` waits by default. */
  timeoutMs?: number;
}

/**
 * Every message of one topic, read by a fresh consumer group (exactly what a downstream consumer
 * sees), for tests to wait on and assert. Other test files share the broker: always select by key.
 *
 * By default the group starts at the topic's end (primed like the services' groups), not at its
 * beginning: job.lifecycle.v1 holds every earlier test file's facts, and a reader working through
 * that backlog timed out waiting for a fact it had not reached yet (75,360 messages read, fetching
 * every 100 ms, no rebalance). When a wait times out, its error carries the consumer's trail.
 */
export class TopicReader<T = Record<string, unknown>> {
  readonly messages: TopicMessage<T>[] = [];
  private consumer?: Consumer;
  /** What the consumer did (joins, rebalances, crashes, last fetch): printed when a wait times out. */
  private readonly trail: string[] = [];
  private fetches = 0;
  private lastFetchAt = 0;

  constructor(
    readonly topic: string,
    private readonly options: TopicReaderOptions<T> = {},
  ) {}

  async start(): Promise<this> {
    const brokers = this.options.brokers ?? testServices().kafkaBrokers;
    const groupId = `topic-reader-${randomBytes(4).toString('hex')}`;
    if ((this.options.from ?? 'now') === 'now') await primeConsumerGroups(brokers, [groupId], [this.topic]);
    const kafka = new Kafka({
      brokers,
      clientId: this.options.clientId ?? 'topic-reader',
      logLevel: logLevel.NOTHING,
    });
    this.consumer = kafka.consumer({
      groupId,
      maxWaitTimeInMs: 100,
      // As the services' consumers (KAFKA_SESSION_TIMEOUT): a rejoin after a missed heartbeat on the
      // busy shared broker waits out the old session, kafkajs' 30 s by default.
      sessionTimeout: 10_000,
    });
    this.instrument(this.consumer);
    await this.consumer.connect();
    // Where the group has no committed offset (from: 'beginning'): the topic's start.
    await this.consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    const { onMessage } = this.options;
    await this.consumer.run({
      eachMessage: async ({ partition, message }) => {
        const read = new TopicMessage<T>(partition, message);
        this.messages.push(read);
        if (onMessage) await onMessage(read);
      },
    });
    return this;
  }

  private instrument(consumer: Consumer): void {
    const at = () => new Date().toISOString().slice(11, 23);
    const { GROUP_JOIN, REBALANCING, CRASH, STOP, DISCONNECT, FETCH, REQUEST_TIMEOUT } = consumer.events;
    consumer.on(GROUP_JOIN, (e) =>
      this.trail.push(`${at()} joined (${e.payload.duration} ms) assigned ${JSON.stringify(e.payload.memberAssignment)}`),
    );
    consumer.on(REBALANCING, () => this.trail.push(`${at()} rebalancing`));
    consumer.on(CRASH, (e) => this.trail.push(`${at()} crash: ${String(e.payload.error)} (restart: ${e.payload.restart})`));
    consumer.on(STOP, () => this.trail.push(`${at()} stop`));
    consumer.on(DISCONNECT, () => this.trail.push(`${at()} disconnect`));
    consumer.on(REQUEST_TIMEOUT, (e) => this.trail.push(`${at()} request timeout ${e.payload.apiName} to ${e.payload.broker}`));
    consumer.on(FETCH, () => {
      this.fetches += 1;
      this.lastFetchAt = Date.now();
    });
  }

  /** The consumer's trail: when a wait times out, whether the reader stalled or the facts never came. */
  diagnose(): string {
    const lastFetch = this.lastFetchAt ? `${Date.now() - this.lastFetchAt} ms ago` : 'never';
    return [`${this.messages.length} messages read, ${this.fetches} fetches, last ${lastFetch}`, ...this.trail].join('\n  ');
  }

  /** The messages with this key, of this envelope type if given, in the order read. */
  of(key: string, type?: string): TopicMessage<T>[] {
    return this.messages.filter((m) => m.key === key && (!type || m.type === type));
  }

  types(key: string): string[] {
    return this.of(key).map((m) => m.envelope.type);
  }

  /** Waits for the `count`-th event of `type` with this key, and returns all of them read so far. */
  waitFor(key: string, type: string, count = 1): Promise<TopicMessage<T>[]> {
    return this.waitUntil((m) => m.key === key && m.type === type, { count, what: `${type} for ${key}` });
  }

  /** Waits until `count` messages match, and returns all the matching ones read so far. */
  async waitUntil(
    match: (message: TopicMessage<T>) => boolean,
    { count = 1, what = 'a matching message' }: { count?: number; what?: string } = {},
  ): Promise<TopicMessage<T>[]> {
    return waitFor(
      () => {
        const seen = this.messages.filter(match);
        // Thrown, not returned: a timeout then says how many had arrived.
        if (seen.length < count) throw new Error(`${seen.length} of ${count} so far`);
        return seen;
      },
      {
        // Longer than one consumer session: a full CI run saw 1 of 3 crossings after 20 s, once.
        timeoutMs: this.options.timeoutMs ?? 45_000,
        what: `${count}× ${what} on ${this.topic}`,
      },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nreader: ${this.diagnose()}`);
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
