// Transactional outbox, idempotent consumers and the Kafka / in-process
// transports behind NestJS `@OnEvent` handlers (libs/messaging/README.md).
export { driverTransactionalClient, type SqlClient, type TransactionalClient, type TransactionOptions } from './core/sql-client';
export { type RetryPolicy, DEFAULT_HANDLER_RETRY, backoffDelay } from './core/backoff';
export { type OutboundMessage, type Publisher, type InboundRecord, HEADERS } from './core/messages';
export { MESSAGING_MIGRATIONS, MESSAGING_TABLES, outboxChannel } from './core/messaging-tables';

export { Outbox, type OutboxOptions } from './outbox/outbox';
export { OutboxRelay, type OutboxRelayOptions, type RelayStatus, type RelayState, type ListenFn } from './outbox/outbox-relay';
export { type OutboxBacklog } from './outbox/outbox-store';

export { EventContext, type EventDelivery, type SettledCallback } from './consumer/event-context';
export { OnEvent, CaptureEventErrors, type EventHandlerOptions } from './consumer/on-event.decorator';
export { ConsumerRegistry } from './consumer/consumer-registry';
export { EventServer, type EventServerSettings } from './consumer/event-server';
export { type ConsumerBinding, type ProcessorStats } from './consumer/event-processor';
export { type DeadLetter, type DeadLetterSink } from './consumer/dead-letter-sink';

export { KafkaEventServer, type KafkaServerSettings } from './kafka/kafka-event.server';
export { KafkaPublisher } from './kafka/kafka-publisher';
export { createKafka, type KafkaSettings } from './kafka/kafka-client';
export { provisionTopics, type ProvisionOptions } from './kafka/provision-topics';
export { replayDeadLetters, type ReplayOptions, type ReplayResult, type DeadLetterEntry, type DeadLetterFilter } from './kafka/dead-letter-replay';

export { InProcessBus } from './in-process/in-process-bus';
export { InProcessEventServer } from './in-process/in-process-event.server';

export { MessagingModule, ServiceMessagingModule } from './nest/messaging.module';
export { type MessagingModuleOptions, type ServiceMessagingOptions } from './nest/messaging.options';
export { MESSAGING_OPTIONS, MESSAGING_PUBLISHER, MESSAGING_SERVER, outboxToken, relayToken, InjectOutbox } from './nest/messaging.tokens';
export { MessagingMonitor, type MessagingSnapshot } from './nest/messaging.monitor';
export { connectMessaging } from './nest/connect-messaging';
