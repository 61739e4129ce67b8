/**
 * bench/outbox: events/s through the transactional outbox → Kafka → inbox
 * path, against bare kafkajs produce → consume on the same broker in the same
 * run. Run: `npm run bench:outbox` with the test services' env (see README.md).
 */
import 'reflect-metadata';
import { cpus } from 'node:os';
import { testServices } from '@genasset/testing';
import { measureBaseline } from './baseline';
import { machineBusyMs, serviceCpuMs } from './cpu';
import { measureRealPath } from './real-path';

const TARGET_EVENTS_PER_SECOND = 5_000;
const TARGET_RATIO = 0.3;

async function main(): Promise<void> {
  const events = Number(process.env.BENCH_EVENTS ?? 50_000);
  const handler = process.env.BENCH_HANDLER === 'event' ? 'event' : 'batch';
  const { kafkaBrokers } = testServices();
  const subjects = 200;

  console.log(`bench/outbox: ${events} events, ${subjects} keys, broker ${kafkaBrokers.join(',')}`);
  const before = { t: Date.now(), self: process.cpuUsage(), machine: machineBusyMs(), broker: serviceCpuMs(undefined, process.env.KAFKA_MOCK_CONTROL).broker };
  // A baseline run lasts about a second, and one run swings by ±20 % on these machines: the
  // median of BENCH_BASELINE_RUNS (default 3) runs is the figure the ratio uses.
  const baselineRuns = [];
  for (let i = 0; i < Math.max(1, Number(process.env.BENCH_BASELINE_RUNS ?? 3)); i++)
    baselineRuns.push(await measureBaseline(kafkaBrokers, events, subjects));
  const sorted = [...baselineRuns].sort((a, b) => a.eventsPerSecond - b.eventsPerSecond);
  const baseline = sorted[Math.floor((sorted.length - 1) / 2)];
  const self = process.cpuUsage(before.self);
  const own = (self.user + self.system) / 1000 + serviceCpuMs(undefined, process.env.KAFKA_MOCK_CONTROL).broker - before.broker;
  const baselineOthers = Math.max(0, Math.round((100 * (machineBusyMs() - before.machine - own)) / ((Date.now() - before.t) * cpus().length)));
  console.log(
    `baseline  kafkajs produce → consume:        ${baseline.eventsPerSecond} events/s (median of ${baselineRuns.map((r) => r.eventsPerSecond).join(', ')})`,
  );
  const real = await measureRealPath(kafkaBrokers, events, {
    subjects,
    batch: Number(process.env.BENCH_WRITE_BATCH ?? 500),
    concurrency: Number(process.env.BENCH_WRITERS ?? 4),
    handler,
    relayBatch: Number(process.env.BENCH_RELAY_BATCH ?? 1000),
    relayLingerMs: process.env.BENCH_RELAY_LINGER_MS === undefined ? undefined : Number(process.env.BENCH_RELAY_LINGER_MS),
    eventsPerTransaction: Number(process.env.BENCH_EVENTS_PER_TX ?? 500),
  });
  console.log(`real path commit → outbox → Kafka → inbox: ${real.eventsPerSecond} events/s (${real.ms} ms; ${handler} handler, ${handler === 'event' || process.env.BENCH_CONSUMER_TX === 'prisma' ? 'Prisma' : 'driver'} transactions; writers alone ${real.writtenPerSecond} events/s)`);
  if (baselineOthers >= 10) {
    console.log(`note: other processes used ${baselineOthers}% of the machine's CPU during the baseline: this run understates it`);
  }
  if (real.othersPercent >= 10) {
    console.log(`note: other processes used ${real.othersPercent}% of the machine's CPU during the real path: this run understates it`);
  }
  const ratio = real.eventsPerSecond / baseline.eventsPerSecond;
  const pass = real.eventsPerSecond >= TARGET_EVENTS_PER_SECOND && ratio >= TARGET_RATIO;
  console.log(`ratio real/baseline: ${ratio.toFixed(2)}`);
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: real path ${real.eventsPerSecond} events/s (target ≥ ${TARGET_EVENTS_PER_SECOND}), ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO})`,
  );
  process.exitCode = pass ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
