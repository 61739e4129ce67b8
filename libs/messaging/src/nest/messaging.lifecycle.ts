import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ReadinessRegistry } from '@genasset/http';
import type { Publisher } from '../core/messages';
import type { EventServer } from '../consumer/event-server';
import { KafkaEventServer } from '../kafka/kafka-event.server';
import type { OutboxRelay } from '../outbox/outbox-relay';
import { MessagingMonitor } from './messaging.monitor';
import type { MessagingModuleOptions } from './messaging.options';
import { MESSAGING_OPTIONS, MESSAGING_PUBLISHER, MESSAGING_SERVER } from './messaging.tokens';

/** Process-wide: the `broker` readiness check, and closing the publisher last. */
@Injectable()
export class MessagingLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingModuleOptions,
    @Inject(MESSAGING_PUBLISHER) private readonly publisher: Publisher,
    @Inject(MESSAGING_SERVER) private readonly server: EventServer,
    private readonly monitor: MessagingMonitor,
    @Optional() private readonly readiness?: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.monitor.setConsumerStats(() => this.server.stats());
    if (this.options.readiness === false || !this.readiness) return;
    // Ready = events can flow: the publisher reaches the broker and every
    // consumer group is consuming. Outbox writes themselves never need the broker.
    this.readiness.register('broker', async () => {
      await this.publisher.check();
      if (this.server instanceof KafkaEventServer) await this.server.check();
    });
  }

  async onApplicationShutdown(): Promise<void> {
    // After beforeApplicationShutdown (relays stopped) and the transport's close.
    await this.publisher.close().catch(() => undefined);
  }
}

/** One service's relay: started once the app is up, stopped (in-flight batch finished) before shutdown. */
export class RelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(private readonly relay: OutboxRelay) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }
}
