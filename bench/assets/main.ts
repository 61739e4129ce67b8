/**
 * bench/assets: GET /v1/assets?pageSize=50&type=… over 1,000,000 assets,
 * through the real asset-service (its own process) next to a bare Fastify +
 * pg handler running the same SQL (baseline), in the same run, on the same
 * database. Run: `npm run bench:assets` (see README.md).
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { IDENTITY_SCHEMA } from '@genasset/identity';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { ASSET_SCHEMA } from '@genasset/service-asset';
import { createTestDatabase, s3Env, testServices, waitFor } from '@genasset/testing';
import { buildListQuery } from '../../libs/services/asset/src/assets/asset-list.repository';
import { merge, paced, saturate, type LoadResult, type Target } from './load';
import { seedAssets } from './seed';

const TARGET_P99_MS = 25;
const TARGET_RATE = 200;
const TARGET_RATIO = 0.5;

const env = process.env;
const TOTAL = Number(env.BENCH_ASSETS ?? 1_000_000);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 200);
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const WARMUP = Number(env.BENCH_WARMUP_SECONDS ?? 3);
/** Baseline and service alternate in this many rounds, so a burst of other load on the machine hits both alike. */
const ROUNDS = Math.max(1, Number(env.BENCH_ROUNDS ?? 3));
const TYPE = env.BENCH_TYPE ?? 'upscale';
const PAGE_SIZE = 50;
const REPO = resolve(__dirname, '../..');

interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a TypeScript entry point in its own process, output to a log file; resolves with the URL it prints. */
async function start(
  entry: string,
  name: string,
  extraEnv: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<Child> {
  const log = resolve(REPO, `.cache/bench-assets-${name}.log`);
  const out = createWriteStream(log);
  const child = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', resolve(REPO, entry)], {
    cwd: REPO,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.pipe(out);
  const url = await new Promise<string>((ok, fail) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out.write(chunk);
      buffer += chunk.toString();
      const match = /READY (\S+)/.exec(buffer);
      if (match) {
        buffer = '';
        ok(match[1].replace('0.0.0.0', '127.0.0.1'));
      } else if (buffer.length > 100_000) buffer = buffer.slice(-1000);
    });
    child.once('exit', (code) =>
      fail(new Error(`${name} exited with ${code} before it was ready (log: ${log})`)),
    );
    setTimeout(() => fail(new Error(`${name} not ready after 120 s (log: ${log})`)), 120_000).unref();
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/** CPU time (ms) a process has used so far (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
  } catch {
    return NaN;
  }
}

type Measured = LoadResult & { cpuPerRequest: number };

/** Runs a load and adds the target process's CPU time per request. */
async function measured(child: Child, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = cpuMs(child.process.pid);
  const result = await run();
  const used = cpuMs(child.process.pid) - before;
  return { ...result, cpuPerRequest: Math.round((used / Math.max(1, result.sent)) * 100) / 100 };
}

/** `rounds` alternating runs of baseline and service, merged per target. */
async function alternate(
  rounds: number,
  runs: { baseline: () => Promise<Measured>; service: () => Promise<Measured> },
): Promise<{ baseline: Measured; service: Measured }> {
  const all: { baseline: Measured[]; service: Measured[] } = { baseline: [], service: [] };
  for (let i = 0; i < rounds; i++) {
    all.baseline.push(await runs.baseline());
    all.service.push(await runs.service());
  }
  const combine = (list: Measured[]): Measured => {
    const sent = list.reduce((n, r) => n + r.sent, 0);
    return {
      ...merge(list),
      cpuPerRequest:
        Math.round((list.reduce((n, r) => n + r.cpuPerRequest * r.sent, 0) / Math.max(1, sent)) * 100) / 100,
    };
  };
  return { baseline: combine(all.baseline), service: combine(all.service) };
}

async function admin(url: string, token: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}/admin/v1/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const fmt = (r: LoadResult & { cpuPerRequest?: number }) =>
  `${String(r.perSecond).padStart(6)} req/s${r.cpuPerRequest !== undefined ? `  cpu ${r.cpuPerRequest.toFixed(2)} ms/req` : ''}  p50 ${r.p50.toFixed(2).padStart(7)} ms  p90 ${r.p90.toFixed(2).padStart(7)} ms  p99 ${r.p99
    .toFixed(2)
    .padStart(7)} ms  max ${r.max.toFixed(1).padStart(7)} ms  (${r.requests} ok, ${r.errors} errors)`;

async function main(): Promise<void> {
  const services = testServices();
  const database = await createTestDatabase('bench_assets');
  const db = new PostgresConnection(database.url, { poolSize: 4 });
  const children: Child[] = [];
  const log = (line: string) => console.log(line);
  try {
    for (const schema of [IDENTITY_SCHEMA, ASSET_SCHEMA]) await migrate(db, schema);
    const adminToken = `adm_${randomBytes(18).toString('base64url')}`;
    const serviceEnv: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: env.BENCH_POOL_SIZE ?? '10',
      KAFKA_BROKERS: services.kafkaBrokers.join(','),
      KAFKA_GROUP_PREFIX: `bench-${randomBytes(3).toString('hex')}.`,
      KAFKA_FROM_BEGINNING: 'false',
      ...s3Env(services.s3),
      ADMIN_TOKEN: adminToken,
    };
    // BENCH_PROFILE=dir: the service writes a V8 CPU profile there when it stops.
    // BENCH_NODE_ARGS: node flags for both servers (e.g. GC tuning), so they stay comparable.
    const nodeArgs = env.BENCH_NODE_ARGS ? env.BENCH_NODE_ARGS.split(' ').filter(Boolean) : [];
    const profile = [
      ...(env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${resolve(env.BENCH_PROFILE)}`] : []),
      ...nodeArgs,
    ];
    const service = await start('bench/assets/service.main.ts', 'service', serviceEnv, profile);
    children.push(service);
    await waitFor(async () => (await fetch(`${service.url}/readyz`)).ok, {
      timeoutMs: 60_000,
      what: 'asset-service /readyz',
    });

    // Tenants through the admin API, as an operator creates them: the bench's project and 9 others.
    const projects: { teamId: string; projectId: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const { team } = await admin(service.url, adminToken, 'teams', { name: `bench-team-${i}` });
      const { project } = await admin(service.url, adminToken, `teams/${team.id}/projects`, {
        name: `bench-${i}`,
      });
      projects.push({ teamId: team.id, projectId: project.id });
    }
    const key = await admin(service.url, adminToken, 'api-keys', {
      teamId: projects[0].teamId,
      projectId: projects[0].projectId,
      role: 'member',
    });
    const auth = `Basic ${Buffer.from(`${key.apiKey}:${key.apiSecret}`).toString('base64')}`;

    log(
      `bench/assets: seeding ${TOTAL.toLocaleString('en')} assets (25 % in the listed project, 10 projects)`,
    );
    const seedStart = Date.now();
    await seedAssets(db, { total: TOTAL, projects, benchShare: 0.25 }, log);
    log(`  seeded and analyzed in ${Math.round((Date.now() - seedStart) / 1000)} s`);

    const baseline = await start(
      'bench/assets/baseline.main.ts',
      'baseline',
      {
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: serviceEnv.DATABASE_POOL_SIZE,
        BENCH_PROJECT_ID: projects[0].projectId,
      },
      nodeArgs,
    );
    children.push(baseline);

    // The SQL both run, and its plan on this data.
    const sql = buildListQuery({
      scope: { kind: 'project', projectId: projects[0].projectId },
      types: [TYPE],
      sortBy: 'createdAt',
      direction: 'desc',
      limit: PAGE_SIZE + 1,
    });
    const [{ n: matching }] = await db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM assets.assets WHERE project_id = $1 AND type = $2',
      [projects[0].projectId, TYPE],
    );
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql.text}`,
      sql.values,
    );
    log(`query: type=${TYPE} matches ${Number(matching).toLocaleString('en')} rows of the project; plan:`);
    for (const row of plan) log(`    ${row['QUERY PLAN']}`);

    const path = `/v1/assets?pageSize=${PAGE_SIZE}&type=${TYPE}`;
    const targets: Record<'baseline' | 'service', Target> = {
      baseline: { origin: baseline.url, path, headers: {} },
      service: { origin: service.url, path, headers: { authorization: auth } },
    };
    for (const [name, target] of Object.entries(targets)) {
      const res = await fetch(`${target.origin}${target.path}`, { headers: target.headers });
      const text = await res.text();
      const body = JSON.parse(text) as { assets: unknown[] };
      if (res.status !== 200 || body.assets.length !== PAGE_SIZE)
        throw new Error(`${name} answered ${res.status} with ${body.assets?.length} assets`);
      log(`${name}: ${PAGE_SIZE} assets, ${Buffer.byteLength(text)} bytes per page`);
    }

    if (env.BENCH_ONLY === 'paced') {
      log(`\nservice only, paced ${TARGET_RATE} req/s, ${SECONDS} s`);
      log(
        `  service   ${fmt(await measured(service, () => paced(targets.service, TARGET_RATE, SECONDS, CONCURRENCY, WARMUP)))}`,
      );
      return;
    }
    if (env.BENCH_ONLY === 'service') {
      log(`\nservice only, saturated: ${CONCURRENCY} concurrent clients, ${SECONDS} s`);
      log(
        `  service   ${fmt(await measured(service, () => saturate(targets.service, CONCURRENCY, SECONDS, WARMUP)))}`,
      );
      return;
    }
    const slice = SECONDS / ROUNDS;
    log(
      `\nsaturated: ${CONCURRENCY} concurrent clients, ${ROUNDS} alternating rounds of ${slice} s each (after ${WARMUP} s warm-up)`,
    );
    const sat = await alternate(ROUNDS, {
      baseline: () => measured(baseline, () => saturate(targets.baseline, CONCURRENCY, slice, WARMUP)),
      service: () => measured(service, () => saturate(targets.service, CONCURRENCY, slice, WARMUP)),
    });
    const [satBaseline, satService] = [sat.baseline, sat.service];
    log(`  baseline  ${fmt(satBaseline)}`);
    log(`  service   ${fmt(satService)}`);

    log(
      `\npaced: ${TARGET_RATE} req/s, ${ROUNDS} alternating rounds of ${slice} s (latency from the scheduled send; up to ${CONCURRENCY} in flight)`,
    );
    const pacedRuns = await alternate(ROUNDS, {
      baseline: () =>
        measured(baseline, () => paced(targets.baseline, TARGET_RATE, slice, CONCURRENCY, WARMUP)),
      service: () => measured(service, () => paced(targets.service, TARGET_RATE, slice, CONCURRENCY, WARMUP)),
    });
    const [pacedBaseline, pacedService] = [pacedRuns.baseline, pacedRuns.service];
    log(`  baseline  ${fmt(pacedBaseline)}`);
    log(`  service   ${fmt(pacedService)}`);

    const ratio = satService.perSecond / satBaseline.perSecond;
    const latencyOk = pacedService.p99 <= TARGET_P99_MS && pacedService.errors === 0;
    const ratioOk = ratio >= TARGET_RATIO && satService.errors === 0;
    log(`\nratio service/baseline (saturated): ${ratio.toFixed(2)}`);
    log(
      `${latencyOk ? 'PASS' : 'FAIL'}: p99 ${pacedService.p99} ms at ${TARGET_RATE} req/s (target ≤ ${TARGET_P99_MS} ms)`,
    );
    log(
      `${ratioOk ? 'PASS' : 'FAIL'}: throughput ${satService.perSecond} req/s = ${ratio.toFixed(2)} × baseline ${satBaseline.perSecond} req/s (target ≥ ${TARGET_RATIO})`,
    );
    process.exitCode = latencyOk && ratioOk ? 0 : 1;
  } finally {
    for (const child of children.reverse()) await child.stop();
    await db.close();
    if (env.BENCH_KEEP_DB) log(`database kept: ${database.url}`);
    else await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
