import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Admin } from 'kafkajs';
import type { EventServer } from '../consumer/event-server';
import { createKafka } from '../kafka/kafka-client';
import { readConsumerLag } from '../metrics/consumer-lag';
import { messagingSources, type MessagingMetricsSource } from '../metrics/messaging.metrics';
import { MessagingMonitor } from './messaging.monitor';
import type { MessagingModuleOptions } from './messaging.options';
import { MESSAGING_OPTIONS, MESSAGING_SERVER } from './messaging.tokens';

/**
 * Feeds this app's relays, consumer counters and (Kafka) consumer groups to
 * the scrape-time collectors of messaging.metrics.ts while the app runs.
 */
@Injectable()
export class MessagingMetrics implements OnModuleInit, OnModuleDestroy {
  private remove?: () => void;
  private admin?: Promise<Admin>;

  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingModuleOptions,
    @Inject(MESSAGING_SERVER) private readonly server: EventServer,
    private readonly monitor: MessagingMonitor,
  ) {}

  onModuleInit(): void {
    const source: MessagingMetricsSource = {
      relays: () =>
        this.monitor
          .relays()
          .map((relay) => ({
            schema: relay.schema,
            published: relay.status().published,
            backlog: () => relay.backlog(),
          })),
      consumerStats: () => this.server.stats(),
      ...(this.options.transport === 'kafka' ? { consumerLag: () => this.lag() } : {}),
    };
    this.remove = messagingSources.add(source);
  }

  async onModuleDestroy(): Promise<void> {
    this.remove?.();
    const admin = this.admin;
    this.admin = undefined;
    await admin?.then((a) => a.disconnect()).catch(() => undefined);
  }

  private async lag() {
    const prefix = this.options.groupPrefix ?? '';
    const groups = Object.entries(this.server.subscriptions()).map(([consumer, topics]) => ({
      group: `${prefix}${consumer}`,
      topics,
    }));
    if (groups.length === 0) return [];
    // Its own client: scrapes must never queue behind the consumers' connections.
    this.admin ??= (async () => {
      const admin = createKafka({
        brokers: this.options.brokers ?? [],
        clientId: `${this.options.clientId}-metrics`,
      }).admin();
      await admin.connect();
      return admin;
    })();
    const admin = await this.admin.catch((error: unknown) => {
      this.admin = undefined;
      throw error;
    });
    return readConsumerLag(admin, groups);
  }
}
