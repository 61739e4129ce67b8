import 'reflect-metadata';
import { DatabaseModule, createPrismaClient, type DatabaseConnection } from '@genasset/persistence';
import { Module, type INestApplication, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import {
  MessagingModule,
  Outbox,
  connectMessaging,
  outboxToken,
  relayToken,
  type EventServer,
  type OutboxRelay,
  type MessagingModuleOptions,
  type TransactionalClient,
} from '../../src';
import { createHttpApp } from '@genasset/http';
import { PrismaClient } from '../src/generated/prisma/client';
import { probeBatchController } from './probe-batch-handler';
import { probeController, type ProbeHandlerOptions } from './probe-handler';
import { SINK_SCHEMA, SOURCE_SCHEMA } from './probe-schema';

export const SOURCE_PRISMA = Symbol('SOURCE_PRISMA');
export const SINK_PRISMA = Symbol('SINK_PRISMA');

export interface ProbeAppOptions {
  readonly messaging: MessagingModuleOptions;
  readonly connection: DatabaseConnection;
  /**
   * Run the producing service's outbox relay. Without it the app can still
   * write to the source outbox, but leaves publishing to the producer process
   * (a consuming service does not relay another service's outbox).
   */
  readonly produce: boolean;
  /** Run the consuming service with this handler. */
  readonly consume?: ProbeHandlerOptions;
  /** Use the batch handler (one statement per delivery batch) instead of the per-event one. */
  readonly batchHandler?: boolean;
  /** Where the consuming service's transactions run (`MessagingModule.forService`; default Prisma). */
  readonly consumerTransactions?: 'prisma' | 'driver';
  /** Wraps the sink's Prisma client (the kill switch wraps `$transaction`). */
  readonly wrapSinkClient?: (client: PrismaClient) => PrismaClient;
  readonly logger?: LoggerService | false;
  /** Built as every service's process is (createHttpApp: global validation pipe, HTTP error filter, logging). */
  readonly httpApp?: boolean;
}

export interface ProbeApp {
  readonly app: INestApplication;
  readonly server?: EventServer;
  readonly outbox: Outbox;
  readonly sourceClient: TransactionalClient;
  close(): Promise<void>;
}

/**
 * A small app shaped like the platform's: two service modules (producer and
 * consumer, each with its own schema and Prisma client) over one transport.
 */
export async function startProbeApp(options: ProbeAppOptions): Promise<ProbeApp> {
  const source = createPrismaClient(PrismaClient, options.connection);
  const sink = createPrismaClient(PrismaClient, options.connection);
  const sinkClient = options.wrapSinkClient ? options.wrapSinkClient(sink) : sink;

  @Module({
    providers: [{ provide: SOURCE_PRISMA, useValue: source }],
    exports: [SOURCE_PRISMA],
  })
  class SourcePrismaModule {}

  @Module({
    imports: [
      MessagingModule.forService({
        schema: SOURCE_SCHEMA,
        producer: 'probe-producer',
        prismaToken: SOURCE_PRISMA,
        imports: [SourcePrismaModule],
      }),
    ],
  })
  class SourceServiceModule {}

  @Module({
    providers: [{ provide: SINK_PRISMA, useValue: sinkClient }],
    exports: [SINK_PRISMA],
  })
  class SinkPrismaModule {}

  const consume = options.consume;
  @Module({
    imports: [
      MessagingModule.forService({
        schema: SINK_SCHEMA,
        producer: 'probe-consumer',
        consumer: consume?.consumer,
        consumerTransactions: options.consumerTransactions,
        prismaToken: SINK_PRISMA,
        imports: [SinkPrismaModule],
      }),
    ],
    controllers: consume ? [options.batchHandler ? probeBatchController(consume) : probeController(consume)] : [],
  })
  class SinkServiceModule {}

  @Module({
    imports: [DatabaseModule.forConnection(options.connection), MessagingModule.forRoot(options.messaging), SourceServiceModule, SinkServiceModule],
  })
  class ProbeAppModule {}

  const app: INestApplication = options.httpApp
    ? await createHttpApp(ProbeAppModule, { serviceName: 'probe', logLevel: 'warn', openapi: { title: 'probe' } })
    : await NestFactory.create(ProbeAppModule, new FastifyAdapter(), {
        logger: options.logger === undefined ? ['error', 'warn'] : options.logger,
        abortOnError: false,
      });
  const server = consume ? connectMessaging(app) : undefined;
  await app.init();
  if (!options.produce) await app.get<OutboxRelay>(relayToken(SOURCE_SCHEMA)).stop();
  if (server) await app.startAllMicroservices();
  return {
    app,
    server,
    outbox: app.get<Outbox>(outboxToken(SOURCE_SCHEMA)),
    sourceClient: source,
    async close() {
      await app.close();
      await Promise.all([source.$disconnect(), sink.$disconnect()]).catch(() => undefined);
    },
  };
}
