/**
 * One measurement process (tracing is process-wide state, so `on` and `off`
 * each run in a fresh process; main.ts alternates them). Prints one JSON line.
 *
 * - http: `app.inject` GET through the real app (createHttpApp: Fastify, Nest,
 *   pino request logging, request metrics, and with tracing on the server span
 *   and its activation), sequential.
 * - consumer: the real Nest RPC handler path of an `@OnEvent` handler (pipes,
 *   interceptors — the tracing interceptor's CONSUMER span when on — filters)
 *   invoked as EventProcessor invokes it, the handler writing one event to an
 *   Outbox (which stamps the trace context when on) against a no-op database.
 *   No database or broker: what is left is exactly the instrumentation's share.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { ExportResult } from '@opentelemetry/core';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  createEnvelope,
  ProbeRecorded,
  TOPICS,
  type EventEnvelope,
  type ProbeRecordedData,
} from '@genasset/contracts';
import { createHttpApp } from '@genasset/http';
import {
  ConsumerRegistry,
  EventContext,
  EventServer,
  OnEvent,
  Outbox,
  type SqlClient,
} from '@genasset/messaging';
import { PostgresConnection } from '@genasset/persistence';
import {
  currentTraceHeaders,
  httpRequestDuration,
  startTracing,
  traceLogFields,
} from '@genasset/observability';
import type { HandlerTable } from '../../libs/messaging/src/consumer/handler-table';

const mode = process.argv[2] === 'on' ? 'on' : 'off';
const N_HTTP = Number(process.env.BENCH_HTTP ?? 20_000);
const N_EVENTS = Number(process.env.BENCH_EVENTS ?? 50_000);
const N_DB_EVENTS = Number(process.env.BENCH_DB_EVENTS ?? 3_000);
const CONSUMER = 'bench-consumer';

/** The SDK's real pipeline (batching, span export) with the network left out. */
class DroppingExporter implements SpanExporter {
  exported = 0;
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.exported += spans.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

const outbox = new Outbox({ schema: 'obsbench', producer: 'bench' });
const noopTx: SqlClient = { $executeRawUnsafe: async () => 1, $queryRawUnsafe: async <T>() => [] as T };

@Controller('bench')
class BenchController {
  @Get()
  get(): { ok: true } {
    return { ok: true };
  }

  @OnEvent(TOPICS.platformProbe, { consumer: CONSUMER })
  async recorded(
    @Payload() envelope: EventEnvelope<ProbeRecordedData>,
    @Ctx() ctx: EventContext,
  ): Promise<void> {
    await outbox.write(ctx.tx, [
      outbox.event(ProbeRecorded, { ...envelope.data, sequence: envelope.data.sequence + 1 }),
    ]);
  }
}

@Module({ controllers: [BenchController], providers: [ConsumerRegistry], exports: [ConsumerRegistry] })
class BenchModule {}

/** Collects the handler table and does nothing else: the bench invokes handlers itself. */
class CaptureServer extends EventServer {
  captured?: HandlerTable;
  protected async start(table: HandlerTable): Promise<void> {
    this.captured = table;
  }
  async close(): Promise<void> {}
}

async function main(): Promise<void> {
  const exporter = new DroppingExporter();
  const tracing =
    mode === 'on'
      ? startTracing({ serviceName: 'bench', env: {}, spanProcessor: new BatchSpanProcessor(exporter) })
      : undefined;
  const app = await createHttpApp(BenchModule, {
    serviceName: 'bench',
    logLevel: 'warn',
    openapi: { title: 'bench' },
  });
  const registry = app.get(ConsumerRegistry);
  registry.register({
    consumer: CONSUMER,
    schema: 'obsbench',
    client: { ...noopTx, $transaction: (fn) => fn(noopTx) },
  });
  const server = new CaptureServer(registry, { knownTopics: [TOPICS.platformProbe] } as never);
  app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  await app.init();
  await app.startAllMicroservices();
  const handler = server.captured!.route(CONSUMER, TOPICS.platformProbe, ProbeRecorded.type)!;

  const envelope = createEnvelope(
    ProbeRecorded,
    { subject: 's', sequence: 0, amount: 1 },
    { producer: 'bench' },
  );
  const delivery = {
    consumer: CONSUMER,
    topic: TOPICS.platformProbe,
    partition: 0,
    offset: '0',
    headers: {},
    attempt: 1,
  };
  const consume = async (n: number) => {
    for (let i = 0; i < n; i++)
      await handler.invoke(envelope, new EventContext(noopTx, { ...delivery, offset: String(i) }));
  };
  const http = async (n: number) => {
    for (let i = 0; i < n; i++) await app.inject({ method: 'GET', url: '/v1/bench' });
  };
  // Warm-up (JIT, lazy paths), then the measured runs.
  await consume(5_000);
  await http(2_000);
  let t = process.hrtime.bigint();
  await consume(N_EVENTS);
  const consumerUs = Number(process.hrtime.bigint() - t) / 1e3 / N_EVENTS;
  t = process.hrtime.bigint();
  await http(N_HTTP);
  const httpUs = Number(process.hrtime.bigint() - t) / 1e3 / N_HTTP;

  // With BENCH_DATABASE_URL (main.ts under scripts/with-services.mjs): the same handler in a real
  // PostgreSQL transaction per event, its outbox row really inserted: the share in a realistic path.
  let consumerDbUs: number | undefined;
  if (process.env.BENCH_DATABASE_URL) {
    const db = new PostgresConnection(process.env.BENCH_DATABASE_URL, { poolSize: 2 });
    const sql = (query: (q: string, p?: unknown[]) => Promise<unknown[]>): SqlClient => ({
      $executeRawUnsafe: async (q: string, ...values: unknown[]) => (await query(q, values)).length,
      $queryRawUnsafe: async <T>(q: string, ...values: unknown[]) => (await query(q, values)) as T,
    });
    const consumeDb = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await db.transaction((query) =>
          handler.invoke(envelope, new EventContext(sql(query), { ...delivery, offset: String(i) })),
        );
      }
    };
    await consumeDb(300);
    t = process.hrtime.bigint();
    await consumeDb(N_DB_EVENTS);
    consumerDbUs = Number(process.hrtime.bigint() - t) / 1e3 / N_DB_EVENTS;
    await db.close();
  }

  // The instrumentation's own hot-path primitives, per call, outside any span.
  const perCallNs = (n: number, fn: () => unknown) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    return Number(process.hrtime.bigint() - start) / n;
  };
  const labels = { method: 'GET', route: '/v1/bench', status_code: '200' };
  const primitivesNs = {
    histogramObserve: perCallNs(1_000_000, () => httpRequestDuration.observe(labels, 0.001)),
    currentTraceHeaders: perCallNs(1_000_000, currentTraceHeaders),
    logMixin: perCallNs(1_000_000, traceLogFields),
  };

  await app.close();
  await tracing?.shutdown();
  process.stdout.write(
    `${JSON.stringify({ mode, consumerUs, consumerDbUs, httpUs, primitivesNs, spansExported: exporter.exported })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
