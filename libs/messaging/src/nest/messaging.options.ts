import type { ModuleMetadata, InjectionToken } from '@nestjs/common';
import type { RetryPolicy } from '../core/backoff';
import type { OutboxRelayOptions } from '../outbox/outbox-relay';

export interface MessagingModuleOptions {
  /** `kafka` in distributed mode; `in-process` in embedded mode (one process, no broker). */
  readonly transport: 'kafka' | 'in-process';
  /** Kafka bootstrap servers (required for `kafka`). */
  readonly brokers?: readonly string[];
  /** Kafka client id (shows in broker logs): usually the app name. */
  readonly clientId: string;
  /** Handler retries before dead-lettering (default 3 tries, 200 ms doubling to 2 s). */
  readonly retry?: Partial<RetryPolicy>;
  /** Events per consumer transaction on the happy path, at most (default 250). */
  readonly maxEventsPerTransaction?: number;
  /**
   * How long one consumer transaction should take (default 100 ms): a consumer whose events
   * cost more takes fewer per transaction, so each commits, and is seen, this soon.
   */
  readonly transactionBudgetMs?: number;
  /** Upper bound of one consumer transaction (default 30 s). */
  readonly transactionTimeoutMs?: number;
  /** Kafka: where a new consumer group starts (default true: from the beginning). */
  readonly fromBeginning?: boolean;
  /** Kafka: prepended to every consumer group id (KAFKA_GROUP_PREFIX). */
  readonly groupPrefix?: string;
  /** Kafka: partitions of one consumer processed concurrently (default 3). */
  readonly partitionsConsumedConcurrently?: number;
  /**
   * Kafka: longest time the broker may hold a fetch that finds nothing new
   * (default 200 ms). A real broker answers as soon as data arrives; some test
   * brokers (librdkafka's mock cluster) always wait this long on an empty fetch.
   */
  readonly fetchMaxWaitMs?: number;
  /**
   * Kafka: how long the broker waits for a consumer's heartbeat before it hands
   * the consumer's partitions to others (KAFKA_SESSION_TIMEOUT, default 10 s).
   */
  readonly sessionTimeoutMs?: number;
  /**
   * Kafka: how often a consumer commits the offsets it applied (KAFKA_COMMIT_INTERVAL,
   * default 1 s; 0: after each applied chunk).
   */
  readonly commitIntervalMs?: number;
  /** Defaults for every service's relay. */
  readonly relay?: Omit<OutboxRelayOptions, 'schema' | 'listen' | 'transaction' | 'logger'>;
  /** Register the `broker` readiness check (default true). */
  readonly readiness?: boolean;
}

export interface ServiceMessagingOptions {
  /** The service's PostgreSQL schema: its outbox, inbox and dead letters live there. */
  readonly schema: string;
  /** Service name stamped on the envelopes it produces. */
  readonly producer: string;
  /** Consumer name of the service's event handlers (`@OnEvent(topic, { consumer })`); omit for a producer-only service. */
  readonly consumer?: string;
  /**
   * Where the consumer's transactions run: `prisma` (default), the handlers' `ctx.tx` a Prisma
   * transaction client; `driver`, on the process's `DatabaseConnection`, `ctx.tx` a `SqlClient`
   * (raw SQL only): for hot consumers whose handlers need no ORM. Falls back to Prisma where
   * the process has no `DatabaseConnection`.
   */
  readonly consumerTransactions?: 'prisma' | 'driver';
  /** Token of the service's Prisma client (its transactions carry handler effects and outbox writes). */
  readonly prismaToken: InjectionToken;
  /** Modules that export `prismaToken`, when it is not global. */
  readonly imports?: ModuleMetadata['imports'];
  /** Overrides of the relay defaults for this service. */
  readonly relay?: Omit<OutboxRelayOptions, 'schema' | 'listen' | 'transaction' | 'logger'>;
}
