import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { EventEnvelope } from '@genasset/contracts';
import { primeConsumerGroups, testServices, waitFor } from '@genasset/testing';

export interface LoggedEvent<T = Record<string, unknown>> {
  key: string | null;
  envelope: EventEnvelope<T>;
}

/**
 * Every message of one topic from the moment `start()` returns, read by a fresh
 * consumer group (exactly what a downstream consumer such as the webhook
 * dispatcher sees). Other test files share the broker: always select by job id.
 *
 * The group starts at the topic's end (primed like the services' groups), not
 * at its beginning: job.lifecycle.v1 holds every earlier test file's facts, and
 * a reader working through that backlog timed out waiting for a fact it had not
 * reached yet (75,360 messages read, fetching every 100 ms, no rebalance).
 */
export class TopicLog {
  private readonly events: LoggedEvent[] = [];
  private consumer?: Consumer;
  /** What the consumer did (joins, rebalances, crashes, last fetch): printed when a wait times out. */
  private readonly trail: string[] = [];
  private fetches = 0;
  private lastFetchAt = 0;

  /** `from: 'beginning'` reads what the topic holds too (a second look after a timed-out wait). */
  constructor(
    private readonly topic: string,
    private readonly options: { from: 'now' | 'beginning' } = { from: 'now' },
  ) {}

  async start(): Promise<this> {
    const brokers = testServices().kafkaBrokers;
    const groupId = `job-test-${randomBytes(4).toString('hex')}`;
    if (this.options.from === 'now') await primeConsumerGroups(brokers, [groupId], [this.topic]);
    const kafka = new Kafka({
      brokers,
      clientId: 'job-test-reader',
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
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        this.events.push({
          key: message.key?.toString() ?? null,
          envelope: JSON.parse(message.value!.toString()),
        });
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
    return [`${this.events.length} messages read, ${this.fetches} fetches, last ${lastFetch}`, ...this.trail].join('\n  ');
  }

  of(jobId: string, type?: string): LoggedEvent[] {
    return this.events.filter((e) => e.envelope.key === jobId && (!type || e.envelope.type === type));
  }

  types(jobId: string): string[] {
    return this.of(jobId).map((e) => e.envelope.type);
  }

  /** Waits for the `count`-th event of `type` about `jobId`. */
  async waitFor(jobId: string, type: string, count = 1): Promise<LoggedEvent[]> {
    return waitFor(
      () => {
        const seen = this.of(jobId, type);
        // Thrown, not returned: a timeout then says how many had arrived.
        if (seen.length < count) throw new Error(`${seen.length} of ${count} so far`);
        return seen;
      },
      {
        // Longer than one consumer session: a full CI run saw 1 of 3 crossings after 20 s, once.
        timeoutMs: 45_000,
        what: `${count}× ${type} for ${jobId} on ${this.topic}`,
      },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nreader: ${this.diagnose()}`);
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
