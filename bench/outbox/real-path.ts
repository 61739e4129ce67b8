import { randomBytes } from 'node:crypto';
import { PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, spawnTsProcess, waitFor } from '@genasset/testing';
import { startProbeApp } from '../../libs/messaging/test/support/probe-app';
import { migrateProbe, SINK_SCHEMA, SOURCE_SCHEMA } from '../../libs/messaging/test/support/probe-schema';
import { writeProbes } from '../../libs/messaging/test/support/probe-writer';
import { serviceCpuMs } from './cpu';
import { rate } from './payload';

export interface RealPathResult {
  eventsPerSecond: number;
  ms: number;
  /** Commit rate of the writers alone (state change + outbox). */
  writtenPerSecond: number;
}

/**
 * The real path: writers commit state changes with their outbox events
 * (batches of `batch` events, `concurrency` transactions in flight), the relay
 * publishes them to the broker, a consumer process applies them with its inbox
 * marks. Timed from the first write to the last event applied.
 */
export async function measureRealPath(
  brokers: string[],
  events: number,
  options: { subjects: number; batch: number; concurrency: number; handler: 'batch' | 'event'; relayBatch: number; eventsPerTransaction: number },
): Promise<RealPathResult> {
  const prefix = `br${randomBytes(3).toString('hex')}`;
  const verbose = Boolean(process.env.BENCH_VERBOSE);
  const db = await createTestDatabase('bench_outbox');
  const connection = new PostgresConnection(db.url, { poolSize: 8 });
  const consumer = spawnTsProcess('bench/outbox/consumer.main.ts', {
    DATABASE_URL: db.url,
    KAFKA_BROKERS: brokers.join(','),
    BENCH_CONSUMER: `bench-${prefix}`,
    BENCH_PREFIX: prefix,
    BENCH_HANDLER: options.handler,
    ...(process.env.BENCH_PROFILE ? { BENCH_PROFILE: process.env.BENCH_PROFILE } : {}),
    BENCH_EVENTS_PER_TX: String(options.eventsPerTransaction),
  });
  try {
    await migrateProbe(connection);
    await consumer.waitForLine(/^READY/, 120_000);
    const producer = await startProbeApp({
      connection,
      produce: true,
      messaging: { transport: 'kafka', brokers, clientId: 'bench-producer', relay: { batchSize: options.relayBatch } },
    });
    let relayedAt: number | undefined;
    let writersDone = false;
    const outboxEmpty = async () =>
      writersDone && (await connection.query(`SELECT 1 FROM ${SOURCE_SCHEMA}.outbox_events LIMIT 1`)).length === 0;
    const applied = async () =>
      (
        await connection.query<{ n: number }>(`SELECT coalesce(sum(events), 0)::int AS n FROM ${SINK_SCHEMA}.balances WHERE subject LIKE $1`, [
          `${prefix}%`,
        ])
      )[0].n;
    const cpuBefore = process.cpuUsage();
    const servicesBefore = serviceCpuMs(db.url, process.env.KAFKA_MOCK_CONTROL);
    const started = Date.now();
    const writing = writeProbes(producer.sourceClient, producer.outbox, {
      prefix,
      subjects: options.subjects,
      perSubject: Math.ceil(events / options.subjects),
      batch: options.batch,
      concurrency: options.concurrency,
    }).then((n) => {
      writersDone = true;
      return { n, ms: Date.now() - started };
    });
    const total = options.subjects * Math.ceil(events / options.subjects);
    await waitFor(
      async () => {
        if (verbose && relayedAt === undefined && (await outboxEmpty())) relayedAt = Date.now();
        return (await applied()) >= total;
      },
      { timeoutMs: 600_000, intervalMs: 100, what: `${total} events applied` },
    );
    const ms = Date.now() - started;
    const written = await writing;
    if (verbose) {
      const cpu = process.cpuUsage(cpuBefore);
      const services = serviceCpuMs(db.url, process.env.KAFKA_MOCK_CONTROL);
      console.log(
        `timeline: writers done ${written.ms} ms, outbox drained ≤ ${(relayedAt ?? Date.now()) - started} ms, applied ${ms} ms; ` +
          `CPU in window: bench process (writers + relay) ${Math.round((cpu.user + cpu.system) / 1000)} ms, ` +
          `postgres ${services.postgres - servicesBefore.postgres} ms, broker ${services.broker - servicesBefore.broker} ms`,
      );
    }
    await producer.close();
    return { eventsPerSecond: rate(total, ms), ms, writtenPerSecond: rate(written.n, written.ms) };
  } finally {
    await consumer.kill('SIGTERM');
    if (verbose) console.log(consumer.output().split('\n').filter((l) => l.startsWith('CPU')).join('\n'));
    await connection.close().catch(() => undefined);
    await db.drop();
  }
}
