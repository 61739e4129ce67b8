/**
 * The bench's consuming service, in its own process (as deployed): Kafka
 * transport, inbox + effect per delivery batch. Prints READY once consuming.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PostgresConnection } from '@genasset/persistence';
import type { KafkaEventServer } from '@genasset/messaging';
import { startProbeApp } from '../../libs/messaging/test/support/probe-app';

async function main(): Promise<void> {
  const env = process.env;
  // BENCH_PROFILE=<file>: CPU profile of this process, written at SIGTERM.
  const session = env.BENCH_PROFILE ? new Session() : undefined;
  session?.connect();
  session?.post('Profiler.enable');
  session?.post('Profiler.start');
  const probe = await startProbeApp({
    connection: new PostgresConnection(env.DATABASE_URL!, { poolSize: 8 }),
    produce: false,
    consume: { consumer: env.BENCH_CONSUMER!, prefix: env.BENCH_PREFIX! },
    batchHandler: env.BENCH_HANDLER !== 'event',
    // The batch handler is raw SQL only: its transactions run on the driver, as the webhook
    // intake's do (BENCH_CONSUMER_TX=prisma for the ORM's). The per-event handler uses Prisma's model API.
    consumerTransactions:
      env.BENCH_HANDLER === 'event' ? 'prisma' : env.BENCH_CONSUMER_TX === 'prisma' ? 'prisma' : 'driver',
    messaging: {
      transport: 'kafka',
      brokers: env.KAFKA_BROKERS!.split(','),
      clientId: 'bench-consumer',
      fromBeginning: false,
      partitionsConsumedConcurrently: Number(env.BENCH_PARTITIONS_CONCURRENTLY ?? 3),
      maxEventsPerTransaction: Number(env.BENCH_EVENTS_PER_TX ?? 250),
      // The baseline's consumer waits at most 100 ms on an empty fetch: the same here.
      fetchMaxWaitMs: Number(env.BENCH_FETCH_MAX_WAIT_MS ?? 100),
    },
  });
  await (probe.server as KafkaEventServer).whenConsuming();
  const ready = process.cpuUsage();
  process.stdout.write(`READY (CPU so far ${Math.round((ready.user + ready.system) / 1000)} ms)\n`);
  // SIGUSR2: print the CPU time used since READY (the bench reads it around a measurement).
  process.on('SIGUSR2', () => {
    const cpu = process.cpuUsage(ready);
    process.stdout.write(`CPU-SINCE-READY ${Math.round((cpu.user + cpu.system) / 1000)}\n`);
  });
  process.once('SIGTERM', () => {
    session?.post('Profiler.stop', (_error, result) => writeFileSync(env.BENCH_PROFILE!, JSON.stringify(result.profile)));
    void probe.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
