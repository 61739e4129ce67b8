import { counter, gauge, ScrapeSources, withinMs } from '@genasset/observability';
import type { DeadLetter } from '../consumer/dead-letter-sink';
import type { ProcessorStats } from '../consumer/event-processor';
import type { OutboxBacklog } from '../outbox/outbox-store';

/** What the scrape-time collectors read, one entry per running app (MessagingMetrics adds it). */
export interface MessagingMetricsSource {
  /** Per service schema: its outbox backlog, and events published since start. */
  relays(): readonly { schema: string; published: number; backlog(): Promise<OutboxBacklog> }[];
  consumerStats(): Record<string, ProcessorStats>;
  /** Kafka only: lag per (group, topic, partition). */
  consumerLag?(): Promise<readonly ConsumerLag[]>;
}

export interface ConsumerLag {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

export const messagingSources = new ScrapeSources<MessagingMetricsSource>();

/** Longest a scrape waits for one database or broker query before leaving that series out. */
const SCRAPE_QUERY_MS = 3_000;

// The DB- and broker-derived gauges are computed when Prometheus scrapes
// (collect), never on the hot path: one COUNT/MIN per outbox table and one
// offset round trip per consumer group per scrape.

export const outboxBacklog = gauge({
  name: 'outbox_backlog_events',
  help: 'Outbox rows written and not yet published, per service schema (every replica reports the shared table: use max by schema)',
  labelNames: ['schema'] as const,
  async collect() {
    this.reset();
    for (const { relay, backlog } of await backlogs()) this.set({ schema: relay.schema }, backlog.count);
  },
});

export const outboxOldestAge = gauge({
  name: 'outbox_oldest_event_age_seconds',
  help: 'Age of the oldest unpublished outbox row, per service schema (0 when empty)',
  labelNames: ['schema'] as const,
  async collect() {
    this.reset();
    for (const { relay, backlog } of await backlogs())
      this.set({ schema: relay.schema }, backlog.oldestAgeMs / 1000);
  },
});

export const outboxPublished = counter({
  name: 'outbox_published_events_total',
  help: 'Outbox events this process published to the transport, per service schema',
  labelNames: ['schema'] as const,
  collect() {
    this.reset();
    for (const source of messagingSources.list()) {
      for (const relay of source.relays()) this.inc({ schema: relay.schema }, relay.published);
    }
  },
});

export const consumerEvents = counter({
  name: 'messaging_consumer_events_total',
  help: 'Events handled by this process per consumer: applied, duplicate (already in the inbox), retried, dead_lettered',
  labelNames: ['consumer', 'outcome'] as const,
  collect() {
    this.reset();
    for (const source of messagingSources.list()) {
      for (const [consumer, stats] of Object.entries(source.consumerStats())) {
        this.inc({ consumer, outcome: 'applied' }, stats.applied);
        this.inc({ consumer, outcome: 'duplicate' }, stats.duplicates);
        this.inc({ consumer, outcome: 'retried' }, stats.retried);
        this.inc({ consumer, outcome: 'dead_lettered' }, stats.deadLettered);
      }
    }
  },
});

export const consumerLag = gauge({
  name: 'messaging_consumer_lag',
  help: 'Messages on a partition not yet committed by the consumer group (high watermark - committed offset)',
  labelNames: ['group', 'topic', 'partition'] as const,
  async collect() {
    this.reset();
    for (const source of messagingSources.list()) {
      const lags = source.consumerLag ? await withinMs(SCRAPE_QUERY_MS, source.consumerLag) : undefined;
      for (const l of lags ?? [])
        this.set({ group: l.group, topic: l.topic, partition: String(l.partition) }, l.lag);
    }
  },
});

export const deadLetters = counter({
  name: 'messaging_dead_letters_total',
  help: 'Messages sent to a dead-letter topic (or table), by original topic, consumer and reason: invalid_message (failed validation) or handler_failed (retries exhausted)',
  labelNames: ['topic', 'consumer', 'reason'] as const,
});

/** Counts one stored dead letter (called by the sinks once the letter is durable). */
export function countDeadLetter(letter: DeadLetter): void {
  deadLetters.inc({
    topic: letter.record.topic,
    consumer: letter.consumer,
    reason: letter.eventId ? 'handler_failed' : 'invalid_message',
  });
}

async function backlogs(): Promise<{ relay: { schema: string }; backlog: OutboxBacklog }[]> {
  const relays = messagingSources.list().flatMap((s) => s.relays());
  const results = await Promise.all(relays.map((relay) => withinMs(SCRAPE_QUERY_MS, () => relay.backlog())));
  return relays.flatMap((relay, i) => (results[i] ? [{ relay, backlog: results[i] }] : []));
}
