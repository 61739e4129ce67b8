import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { EventEnvelope } from '@genasset/contracts';
import { testServices, waitFor } from '@genasset/testing';

export interface LoggedEvent<T = Record<string, unknown>> {
  key: string | null;
  envelope: EventEnvelope<T>;
}

/**
 * Every message of one topic, read from the beginning by a fresh consumer group
 * (exactly what a downstream consumer such as the webhook dispatcher sees).
 * Other test files share the broker: always select by job id.
 */
export class TopicLog {
  private readonly events: LoggedEvent[] = [];
  private consumer?: Consumer;

  constructor(private readonly topic: string) {}

  async start(): Promise<this> {
    const kafka = new Kafka({
      brokers: testServices().kafkaBrokers,
      clientId: 'job-test-reader',
      logLevel: logLevel.NOTHING,
    });
    this.consumer = kafka.consumer({
      groupId: `job-test-${randomBytes(4).toString('hex')}`,
      maxWaitTimeInMs: 100,
      // As the services' consumers (KAFKA_SESSION_TIMEOUT): a rejoin after a missed heartbeat on the
      // busy shared broker waits out the old session, kafkajs' 30 s by default.
      sessionTimeout: 10_000,
    });
    await this.consumer.connect();
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
    );
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
