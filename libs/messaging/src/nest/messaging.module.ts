import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { Module, type DynamicModule } from '@nestjs/common';
import { buildEventRegistry } from '@genasset/contracts';
import { DEFAULT_HANDLER_RETRY } from '../core/backoff';
import type { Publisher } from '../core/messages';
import { driverTransactionalClient, type TransactionalClient } from '../core/sql-client';
import { ConsumerRegistry } from '../consumer/consumer-registry';
import type { EventServerSettings } from '../consumer/event-server';
import { InProcessBus } from '../in-process/in-process-bus';
import { InProcessEventServer } from '../in-process/in-process-event.server';
import { createKafka } from '../kafka/kafka-client';
import { KafkaEventServer } from '../kafka/kafka-event.server';
import { KafkaPublisher } from '../kafka/kafka-publisher';
import { Outbox } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { MessagingLifecycle, RelayLifecycle } from './messaging.lifecycle';
import { MessagingMetrics } from './messaging-metrics';
import { MessagingMonitor } from './messaging.monitor';
import type { MessagingModuleOptions, ServiceMessagingOptions } from './messaging.options';
import { MESSAGING_OPTIONS, MESSAGING_PUBLISHER, MESSAGING_SERVER, outboxToken, relayToken } from './messaging.tokens';

/**
 * `forRoot` (once per process, global): the transport — publisher and
 * strategy — and the consumer registry. `forService` (once per service
 * module): that service's `Outbox`, its relay, and its consumer's database.
 */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    if (options.transport === 'kafka' && !options.brokers?.length) throw new Error('MessagingModule: the kafka transport needs brokers');
    const kafka = options.transport === 'kafka' ? createKafka({ brokers: options.brokers!, clientId: options.clientId }) : undefined;
    const settings: EventServerSettings = {
      retry: { ...DEFAULT_HANDLER_RETRY, ...options.retry },
      maxEventsPerTransaction: options.maxEventsPerTransaction ?? 250,
      transactionBudgetMs: options.transactionBudgetMs ?? 100,
      transactionTimeoutMs: options.transactionTimeoutMs ?? 30_000,
      registry: buildEventRegistry(),
    };
    return {
      module: MessagingModule,
      global: true,
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        ConsumerRegistry,
        MessagingMonitor,
        InProcessBus,
        {
          provide: MESSAGING_PUBLISHER,
          useFactory: (bus: InProcessBus): Publisher => (kafka ? new KafkaPublisher(kafka) : bus),
          inject: [InProcessBus],
        },
        {
          provide: MESSAGING_SERVER,
          useFactory: (registry: ConsumerRegistry, publisher: Publisher, bus: InProcessBus) =>
            kafka
              ? new KafkaEventServer(registry, kafka, publisher as KafkaPublisher, {
                  ...settings,
                  fromBeginning: options.fromBeginning,
                  groupPrefix: options.groupPrefix,
                  partitionsConsumedConcurrently: options.partitionsConsumedConcurrently,
                  fetchMaxWaitMs: options.fetchMaxWaitMs,
                  sessionTimeoutMs: options.sessionTimeoutMs,
                  commitIntervalMs: options.commitIntervalMs,
                })
              : new InProcessEventServer(registry, bus, settings),
          inject: [ConsumerRegistry, MESSAGING_PUBLISHER, InProcessBus],
        },
        MessagingLifecycle,
        MessagingMetrics,
      ],
      exports: [MESSAGING_OPTIONS, MESSAGING_PUBLISHER, MESSAGING_SERVER, ConsumerRegistry, MessagingMonitor],
    };
  }

  static forService(options: ServiceMessagingOptions): DynamicModule {
    const { schema } = options;
    const lifecycleToken = `messaging:relay-lifecycle:${schema}`;
    return {
      module: ServiceMessagingModule,
      imports: [...(options.imports ?? [])],
      providers: [
        { provide: Outbox, useFactory: () => new Outbox({ schema, producer: options.producer }) },
        { provide: outboxToken(schema), useExisting: Outbox },
        {
          provide: relayToken(schema),
          useFactory: (
            client: TransactionalClient,
            publisher: Publisher,
            registry: ConsumerRegistry,
            monitor: MessagingMonitor,
            root: MessagingModuleOptions,
            connection?: DatabaseConnection,
          ) => {
            if (options.consumer) {
              const driver = options.consumerTransactions === 'driver' && connection;
              registry.register({
                consumer: options.consumer,
                schema,
                client: driver ? driverTransactionalClient(connection) : client,
              });
            }
            const relay = new OutboxRelay(client, publisher, {
              ...root.relay,
              ...options.relay,
              schema,
              listen: connection ? (channel, onNotify, onGap) => connection.listen(channel, onNotify, onGap) : undefined,
              transaction: connection ? (fn) => connection.transaction(fn) : undefined,
              query: connection ? (sql, params) => connection.query(sql, params) : undefined,
            });
            monitor.addRelay(relay);
            return relay;
          },
          inject: [
            options.prismaToken,
            MESSAGING_PUBLISHER,
            ConsumerRegistry,
            MessagingMonitor,
            MESSAGING_OPTIONS,
            { token: DATABASE_CONNECTION, optional: true },
          ],
        },
        { provide: lifecycleToken, useFactory: (relay: OutboxRelay) => new RelayLifecycle(relay), inject: [relayToken(schema)] },
      ],
      exports: [Outbox, outboxToken(schema), relayToken(schema)],
    };
  }
}

/** One service's messaging (not global: each service module imports its own). */
@Module({})
export class ServiceMessagingModule {}
