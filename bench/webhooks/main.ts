/**
 * bench/webhooks: deliveries/s and fact → receiver latency through the real
 * path (job fact on Kafka → intake → delivery rows → worker → signed POST →
 * receiver 200 → attempt recorded), against bare signed POSTs to the same
 * receiver in the same run. Run: `npm run bench:webhooks` (see README.md).
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prefixedId, TOPICS } from '@genasset/contracts';
import { IDENTITY_SCHEMA } from '@genasset/identity';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { SecretBox, WEBHOOK_SCHEMA, WEBHOOK_SERVICE } from '@genasset/service-webhook';
import {
  createTestDatabase,
  freePort,
  primeConsumerGroups,
  spawnTsProcess,
  testServices,
  waitFor,
  type SpawnedProcess,
} from '@genasset/testing';
import { measureBaseline } from './baseline';
import { cpuDelta, cpuSnapshot } from './cpu';
import { databaseWork, describeWork } from './db-stats';
import { FactProducer, type FactBatch, type Tenancy } from './facts';

const TARGET_PER_SECOND = 5_000;
const TARGET_RATIO = 0.2;
const TARGET_P99_MS = 100;

const EVENTS = Number(process.env.BENCH_EVENTS ?? 30_000);
/** Facts through the whole path before anything is measured (README: why so many). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 8);
/** Dispatcher processes (replicas share the intake's partitions and the delivery queue). */
const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 1);
const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 12);
// Facts go out in batches every TICK ms (see README: the mock broker serves one produce batch per partition per fetch).
const TICK_MS = Number(process.env.BENCH_TICK_MS ?? 100);

async function main(): Promise<void> {
  const { kafkaBrokers } = testServices();
  const database = await createTestDatabase('bench_webhooks');
  const db = new PostgresConnection(database.url, { poolSize: 4 });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const processes: SpawnedProcess[] = [];
  let producer: FactProducer | undefined;
  try {
    for (const definition of [IDENTITY_SCHEMA, WEBHOOK_SCHEMA]) await migrate(db, definition);
    const receiver = spawnTsProcess('bench/webhooks/receiver.main.ts');
    processes.push(receiver);
    const port = Number((await receiver.waitForLine(/^LISTENING \d+/, 60_000)).split(' ')[1]);
    const receiverUrl = `http://127.0.0.1:${port}`;
    const received = async () =>
      (await (await fetch(`${receiverUrl}/count`)).json()) as { requests: number; timed: number };
    console.log(
      `bench/webhooks: ${EVENTS} events, ${CONNECTIONS} connections, ${ENDPOINTS} endpoints, ${REPLICAS} dispatcher(s); latency at ${RATE}/s for ${LATENCY_SECONDS} s`,
    );

    // (a) Baseline: bare signed POSTs. One run lasts well under a second and swings by ±20 % on a
    // shared VM, so the ratio uses the median of BENCH_BASELINE_RUNS (default 3), all printed.
    const baselineRuns: { perSecond: number; ms: number }[] = [];
    for (let i = 0; i < Math.max(1, Number(process.env.BENCH_BASELINE_RUNS ?? 3)); i++)
      baselineRuns.push(await measureBaseline(`${receiverUrl}/baseline`, EVENTS, CONNECTIONS));
    const baseline = [...baselineRuns].sort((a, b) => a.perSecond - b.perSecond)[
      Math.floor(baselineRuns.length / 2)
    ];
    console.log(
      `baseline  signed POSTs (undici, ${CONNECTIONS} connections):             ${baseline.perSecond} requests/s (median of ${baselineRuns.map((r) => r.perSecond).join(', ')})`,
    );

    // One endpoint per project, all subscribed to generation.completed, on the same receiver.
    const secretKey = randomBytes(32);
    const box = new SecretBox(secretKey);
    const tenancy: Tenancy = {
      teamId: prefixedId('team'),
      projectIds: Array.from({ length: ENDPOINTS }, () => prefixedId('proj')),
    };
    const endpointIds: string[] = [];
    for (const [i, projectId] of tenancy.projectIds.entries()) {
      const id = prefixedId('we');
      endpointIds.push(id);
      await db.query(
        `INSERT INTO webhooks.webhook_endpoints (id, owner_type, owner_id, team_id, url, enabled_events, secret_ciphertext)
         VALUES ($1, 'project', $2, $3, $4, ARRAY['generation.completed'], $5)`,
        [
          id,
          projectId,
          tenancy.teamId,
          `${receiverUrl}/hooks/${i}`,
          box.seal(`whsec_${randomBytes(32).toString('base64url')}`),
        ],
      );
    }

    // The webhook-dispatcher app as deployed: intake consumer, delivery workers, management API.
    // Replicas split the connection budget, so the total matches the baseline's.
    const groupPrefix = `bench-${randomBytes(4).toString('hex')}.`;
    // The group's offsets start at the topics' ends before any replica joins: with
    // KAFKA_FROM_BEGINNING=false, a partition first assigned in a later rebalance (a second
    // replica joining) would otherwise start after facts already published, and lose them.
    await primeConsumerGroups(
      kafkaBrokers,
      [`${groupPrefix}${WEBHOOK_SERVICE}`],
      [TOPICS.jobLifecycle, TOPICS.teamAlerts],
    );
    const dispatchers: SpawnedProcess[] = [];
    const metricsUrls: string[] = [];
    for (let r = 0; r < REPLICAS; r++) {
      const httpPort = await freePort();
      const dispatcher = spawnDispatcher({
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(httpPort),
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: '16',
        KAFKA_BROKERS: kafkaBrokers.join(','),
        KAFKA_GROUP_PREFIX: groupPrefix,
        KAFKA_FROM_BEGINNING: 'false',
        // The test broker holds an empty fetch for the full wait (README): 10 ms stands in for a real broker's early answer.
        KAFKA_FETCH_MAX_WAIT: process.env.BENCH_FETCH_MAX_WAIT ?? '10ms',
        KAFKAJS_NO_PARTITIONER_WARNING: '1',
        WEBHOOK_SECRET_KEY: secretKey.toString('base64'),
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_MAX_IN_FLIGHT: String(Math.ceil(CONNECTIONS / REPLICAS)),
        WEBHOOK_ENDPOINT_CONCURRENCY: String(Math.ceil(CONNECTIONS / REPLICAS / ENDPOINTS)),
        ...(process.env.BENCH_DISPATCHER_NODE_OPTIONS
          ? { NODE_OPTIONS: process.env.BENCH_DISPATCHER_NODE_OPTIONS }
          : {}),
      });
      processes.push(dispatcher);
      dispatchers.push(dispatcher);
      metricsUrls.push(`http://127.0.0.1:${httpPort}/metrics`);
      await waitFor(async () => (await fetch(`http://127.0.0.1:${httpPort}/readyz`)).ok, {
        timeoutMs: 120_000,
        intervalMs: 250,
        what: 'dispatcher /readyz',
      });
    }
    producer = await FactProducer.connect(kafkaBrokers);
    const cpu = () =>
      cpuSnapshot({
        postgres: (cmd) => cmd.includes(database.name),
        dispatcher: (_cmd, pid) => dispatchers.some((d) => d.child.pid === pid),
        receiver: (_cmd, pid) => pid === receiver.child.pid,
        broker: (cmd) =>
          cmd.includes('kafka-mock') &&
          (!process.env.KAFKA_MOCK_CONTROL || cmd.includes(process.env.KAFKA_MOCK_CONTROL)),
        bench: (_cmd, pid) => pid === process.pid,
      });
    let takenBefore = await takenBy(metricsUrls);
    const verbose = async (label: string, before: Record<string, number>) => {
      if (!process.env.BENCH_VERBOSE) return;
      console.log(`          CPU during ${label}: ${cpuDelta(before, cpu())}`);
      const taken = await takenBy(metricsUrls);
      console.log(
        `          deliveries the workers took during ${label}: ${taken.handoff - takenBefore.handoff} handed over by the intake, ${taken.claim - takenBefore.claim} claimed`,
      );
      takenBefore = taken;
    };

    /** Done when the receiver got `count` more requests and no delivery is pending (every attempt recorded). */
    const settled = async (since: number, count: number, started: number) => {
      const watching = watch(db, started);
      try {
        await waitFor(async () => (await received()).requests >= since + count, {
          timeoutMs: 600_000,
          intervalMs: 50,
          what: `${count} requests`,
        });
        await waitFor(async () => (await pendingCount(db)) === 0, {
          timeoutMs: 600_000,
          intervalMs: 20,
          what: 'every attempt recorded',
        });
      } finally {
        clearInterval(watching);
      }
      return Date.now() - started;
    };

    const workBefore = await databaseWork(db);
    // Warm-up: consumer fetching, pools connected, hot code optimised by V8 (a few thousand
    // deliveries: after 500 the dispatcher still spent a tenth of its CPU compiling).
    let since = (await received()).requests;
    for (const batch of batches(tenancy, WARMUP, 500)) await producer.send(batch);
    await settled(since, WARMUP, Date.now());

    // (b) Sustained: publish N facts as fast as the producer goes; done when every delivery is recorded.
    since = (await received()).requests;
    const sustained = batches(tenancy, EVENTS, 500);
    let cpuBefore = cpu();
    // A mark for tools that sample the processes during this run only (perf, schedstat).
    if (process.env.BENCH_VERBOSE) console.log('sustained run: publishing');
    const started = Date.now();
    for (const batch of sustained) await producer.send(batch);
    const publishedMs = Date.now() - started;
    const sustainedMs = await settled(since, EVENTS, started);
    const perSecond = Math.round((EVENTS / sustainedMs) * 1000);
    await verbose('the sustained run', cpuBefore);
    const recorded = await totals(db);
    console.log(
      `real path fact → Kafka → intake → worker → 200 → recorded: ${perSecond} deliveries/s (${sustainedMs} ms; facts published in ${publishedMs} ms)`,
    );
    console.log(
      `          recorded: ${recorded.success} success of ${recorded.deliveries} deliveries, ${recorded.attempts} attempts, nbTotalCalls ${recorded.calls}`,
    );

    // (c) Latency at a steady rate: batches every TICK ms on an absolute schedule.
    const publishedAt = new Map<string, number>();
    const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
    const ticks = Math.round((LATENCY_SECONDS * 1000) / TICK_MS);
    const expected = ticks * perTick;
    const timed = batches(tenancy, expected, perTick, true);
    since = (await received()).requests;
    cpuBefore = cpu();
    const sending: Promise<void>[] = [];
    const t0 = Date.now();
    for (let k = 0; k < ticks; k++) {
      const wait = t0 + k * TICK_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sending.push(
        producer.send(timed[k]).then((sent) => sent.forEach(([jobId, at]) => publishedAt.set(jobId, at))),
      );
    }
    const achievedRate = Math.round((expected / (Date.now() - t0)) * 1000);
    await Promise.all(sending);
    await settled(since, expected, t0);
    await verbose('the latency run', cpuBefore);
    const arrivals = (await (await fetch(`${receiverUrl}/arrivals`)).json()) as Record<string, number>;
    const latencies = [...publishedAt].map(([jobId, at]) => arrivals[jobId] - at).sort((a, b) => a - b);
    // The dispatcher's share: delivery row written by the intake (its transaction's start) → request at the receiver.
    const rows = await db.query<{ job_id: string; created: number }>(
      `SELECT payload->'data'->>'jobId' AS job_id, (extract(epoch FROM created_at) * 1000)::float8 AS created
         FROM webhooks.webhook_deliveries WHERE payload->'data'->>'jobId' LIKE 'job_L%'`,
    );
    const dispatchLatencies = rows.map((r) => arrivals[r.job_id] - r.created).sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    console.log(
      `latency   fact publish → receiver, ${RATE} facts/s (${expected} facts, ${perTick} every ${TICK_MS} ms): ${summary(latencies)}`,
    );
    console.log(
      `          of which delivery row written → receiver (dispatcher):       ${summary(dispatchLatencies)}`,
    );

    // (d) For comparison, the dispatcher alone: N delivery rows written straight into the table (no Kafka, no intake).
    since = (await received()).requests;
    cpuBefore = cpu();
    const aloneStarted = Date.now();
    await insertDue(db, endpointIds, EVENTS);
    const aloneMs = await settled(since, EVENTS, aloneStarted);
    console.log(
      `dispatch alone rows → worker → 200 → recorded:                   ${Math.round((EVENTS / aloneMs) * 1000)} deliveries/s (${aloneMs} ms)`,
    );
    await verbose('dispatch alone', cpuBefore);

    if (process.env.BENCH_VERBOSE) {
      // The dispatcher's sessions publish their statistics within 10 s of going idle.
      await new Promise((r) => setTimeout(r, 11_000));
      console.log(`database  ${describeWork(workBefore, await databaseWork(db))}`);
    }

    const ratio = perSecond / baseline.perSecond;
    const pass = perSecond >= TARGET_PER_SECOND && ratio >= TARGET_RATIO && p99 <= TARGET_P99_MS;
    console.log(`ratio real/baseline: ${ratio.toFixed(2)}`);
    console.log(
      `${pass ? 'PASS' : 'FAIL'}: ${perSecond} deliveries/s (target ≥ ${TARGET_PER_SECOND}), ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}), ` +
        `p99 ${p99} ms at ${RATE}/s (target ≤ ${TARGET_P99_MS} ms)${achievedRate < RATE * 0.9 ? ` [publisher reached only ${achievedRate}/s]` : ''}`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    await producer?.close().catch(() => undefined);
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await db.close().catch(() => undefined);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `count` facts in batches of `size`, spread over the tenancy's projects. */
function batches(tenancy: Tenancy, count: number, size: number, timed = false): FactBatch[] {
  const result: FactBatch[] = [];
  for (let i = 0; i < count; i += size)
    result.push(FactProducer.prepare(tenancy, Math.min(size, count - i), i, timed));
  return result;
}

/** Deliveries still to attempt or retry (the partial index of pending deliveries: cheap to count). */
async function pendingCount(db: PostgresConnection): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhooks.webhook_deliveries WHERE status IN ('created', 'retrying')`,
  );
  return n;
}

async function totals(db: PostgresConnection) {
  const [row] = await db.query<{ deliveries: number; success: number; attempts: number; calls: number }>(
    `SELECT (SELECT count(*)::int FROM webhooks.webhook_deliveries) AS deliveries,
            (SELECT count(*)::int FROM webhooks.webhook_deliveries WHERE status = 'success') AS success,
            (SELECT sum(jsonb_array_length(attempts))::int FROM webhooks.webhook_deliveries) AS attempts,
            (SELECT sum(nb_total_calls)::int FROM webhooks.webhook_endpoints) AS calls`,
  );
  return row;
}

/** `count` due deliveries written as the intake writes them (one statement, then NOTIFY). */
async function insertDue(db: PostgresConnection, endpointIds: string[], count: number): Promise<void> {
  await db.query(
    `WITH rows AS (SELECT 'whevent_alone' || g || '_' || md5(random()::text) AS id, $1::text[] AS eps, g FROM generate_series(1, $2) AS g)
     INSERT INTO webhooks.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at)
     SELECT id, eps[1 + g % cardinality(eps)], 'evt_' || id, 'generation.completed',
            jsonb_build_object('id', id, 'type', 'generation.completed', 'data', jsonb_build_object('jobId', 'job_alone' || g, 'jobType', 'inference')),
            'created', now()
       FROM rows`,
    [endpointIds, count],
  );
  await db.query(`SELECT pg_notify('webhooks_deliveries', '')`);
}

/**
 * apps/webhook-dispatcher/src/main.ts in its own process; with BENCH_PROFILE=<dir> it writes a CPU
 * profile there when it exits (--cpu-prof is not allowed in NODE_OPTIONS, so not via spawnTsProcess).
 */
function spawnDispatcher(env: NodeJS.ProcessEnv): SpawnedProcess {
  const entry = 'apps/webhook-dispatcher/src/main.ts';
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return spawnTsProcess(entry, env);
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, '-r', '@swc-node/register', entry],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => '',
    errors: () => '',
    waitForLine: () => Promise.reject(new Error('not captured while profiling')),
    kill: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
}

function summary(sorted: number[]): string {
  return `p50 ${percentile(sorted, 50)} ms, p90 ${percentile(sorted, 90)} ms, p99 ${percentile(sorted, 99)} ms, max ${Math.round(sorted.at(-1)!)} ms`;
}

/** How the dispatchers' workers took their deliveries so far (webhook_dispatch_taken_total, summed). */
async function takenBy(metricsUrls: readonly string[]): Promise<{ handoff: number; claim: number }> {
  const taken = { handoff: 0, claim: 0 };
  if (!process.env.BENCH_VERBOSE) return taken;
  for (const url of metricsUrls) {
    const text = await (await fetch(url)).text();
    for (const source of ['handoff', 'claim'] as const) {
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`webhook_dispatch_taken_total{source="${source}"}`));
      taken[source] += line ? Number(line.split(' ').pop()) : 0;
    }
  }
  return taken;
}

/** BENCH_VERBOSE: pending deliveries every 500 ms. */
function watch(db: PostgresConnection, since: number): NodeJS.Timeout | undefined {
  if (!process.env.BENCH_VERBOSE) return undefined;
  return setInterval(() => {
    void pendingCount(db).then((n) => console.log(`  +${Date.now() - since} ms: ${n} pending`));
  }, 500);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
