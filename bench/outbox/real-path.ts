import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, spawnTsProcess, waitFor, type SpawnedProcess } from '@genasset/testing';
import { startProbeApp } from '../../libs/messaging/test/support/probe-app';
import { migrateProbe, SINK_SCHEMA, SOURCE_SCHEMA } from '../../libs/messaging/test/support/probe-schema';
import { writeProbes } from '../../libs/messaging/test/support/probe-writer';
import { machineBusyMs, serviceCpuMs } from './cpu';
import { rate } from './payload';

export interface RealPathResult {
  eventsPerSecond: number;
  ms: number;
  /** Commit rate of the writers alone (state change + outbox). */
  writtenPerSecond: number;
  /** CPU the rest of the machine used meanwhile, in % of all cores (other load skews the figure). */
  othersPercent: number;
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
  options: {
    subjects: number;
    batch: number;
    concurrency: number;
    handler: 'batch' | 'event';
    relayBatch: number;
    /** Undefined: the relay's default. */
    relayLingerMs?: number;
    eventsPerTransaction: number;
  },
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
      messaging: {
        transport: 'kafka',
        brokers,
        clientId: 'bench-producer',
        relay: { batchSize: options.relayBatch, ...(options.relayLingerMs === undefined ? {} : { lingerMs: options.relayLingerMs }) },
      },
    });
    let relayedAt: number | undefined;
    let writersDone = false;
    const outboxEmpty = async () => (await connection.query(`SELECT 1 FROM ${SOURCE_SCHEMA}.outbox_events LIMIT 1`)).length === 0;
    const applied = async () =>
      (
        await connection.query<{ n: number }>(`SELECT coalesce(sum(events), 0)::int AS n FROM ${SINK_SCHEMA}.balances WHERE subject LIKE $1`, [
          `${prefix}%`,
        ])
      )[0].n;
    const cpuBefore = await cpuSnapshot(consumer, db.url);
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
    // Nothing can be complete before the writers are: poll gently until then,
    // then closely, so that the check adds little to the measured time.
    const deadline = started + 600_000;
    while ((await applied()) < total) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${total} events applied`);
      if (verbose && writersDone && relayedAt === undefined && (await outboxEmpty())) relayedAt = Date.now();
      await new Promise((r) => setTimeout(r, writersDone ? 10 : 50));
    }
    const ms = Date.now() - started;
    const written = await writing;
    const cpu = diffCpu(cpuBefore, await cpuSnapshot(consumer, db.url));
    const sum = cpu.bench + cpu.consumer + cpu.postgres + cpu.broker;
    const othersPercent = Math.max(0, Math.round((100 * (cpu.machine - sum)) / (ms * cpus().length)));
    if (verbose) {
      console.log(`timeline: writers done ${written.ms} ms, outbox drained ≤ ${(relayedAt ?? Date.now()) - started} ms, applied ${ms} ms`);
      console.log(
        `CPU in window: bench process (writers + relay) ${cpu.bench} ms, consumer process ${cpu.consumer} ms, ` +
          `postgres ${cpu.postgres} ms, broker ${cpu.broker} ms; sum ${sum} ms = ${((100 * sum) / (ms * cpus().length)).toFixed(0)}% of ${cpus().length} cores`,
      );
    }
    await producer.close();
    return { eventsPerSecond: rate(total, ms), ms, writtenPerSecond: rate(written.n, written.ms), othersPercent };
  } finally {
    await consumer.kill('SIGTERM');
    await connection.close().catch(() => undefined);
    await db.drop();
  }
}

interface CpuSnapshot {
  bench: number;
  consumer: number;
  postgres: number;
  broker: number;
  /** Everything on the machine. */
  machine: number;
}

/** CPU ms so far of this process, the consumer process (asked by SIGUSR2), PostgreSQL, the broker and the whole machine. */
async function cpuSnapshot(consumer: SpawnedProcess, databaseUrl: string): Promise<CpuSnapshot> {
  const answers = () => consumer.output().split('\n').filter((l) => l.startsWith('CPU-SINCE-READY'));
  const before = answers().length;
  consumer.child.kill('SIGUSR2');
  await waitFor(() => answers().length > before, { timeoutMs: 5_000, intervalMs: 2, what: 'consumer CPU report' });
  const self = process.cpuUsage();
  const services = serviceCpuMs(databaseUrl, process.env.KAFKA_MOCK_CONTROL);
  return {
    bench: Math.round((self.user + self.system) / 1000),
    consumer: Number(answers()[before].split(' ')[1]),
    ...services,
    machine: machineBusyMs(),
  };
}

function diffCpu(a: CpuSnapshot, b: CpuSnapshot): CpuSnapshot {
  return {
    bench: b.bench - a.bench,
    consumer: b.consumer - a.consumer,
    postgres: b.postgres - a.postgres,
    broker: b.broker - a.broker,
    machine: b.machine - a.machine,
  };
}
