/**
 * bench/generation: requests/s and latency from `POST /v1/generate/pixelate`
 * (512 × 512 input) to the `generation.completed` webhook at a receiver,
 * through the whole platform on the real PostgreSQL, broker and S3, next to
 * the image engine's own processing time measured alone in the same run.
 * Run: `npm run bench:generation` (see README.md).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresConnection } from '@genasset/persistence';
import { spawnTsProcess, waitFor, type SpawnedProcess } from '@genasset/testing';
import { cpuDelta, cpuSnapshot } from '../webhooks/cpu';
import { startDeployment, type Deployment } from './deployment';
import { benchInput, measureEngineAlone, PIXELATE_PARAMS } from './engine-alone';
import { startRemoteBackend, runRemote, type RemoteBackend } from './remote';
import { openLoop, percentile, perRequest, printStages, summary, type Sent } from './stages';

const TARGET_RATE = 50;
const TARGET_P99_OVERHEAD_MS = 100;

const env = process.env;
const RATE = Number(env.BENCH_RATE ?? TARGET_RATE);
const SECONDS = Number(env.BENCH_SECONDS ?? 20);
const ENGINE_RUNS = Number(env.BENCH_ENGINE_RUNS ?? 100);
/** BENCH_BACKEND=openai: the remote-backend run (remote.ts) instead of pixelate on the image engine. */
const REMOTE = env.BENCH_BACKEND === 'openai';
// A job waiting on a remote backend holds no worker slot (the backend's concurrency, 256, bounds it).
const CONCURRENCY = env.BENCH_INFERENCE_CONCURRENCY ?? '4';
const FETCH_MAX_WAIT = env.BENCH_FETCH_MAX_WAIT ?? '10ms';
const IDLE_SECONDS = Number(env.BENCH_IDLE_SECONDS ?? 5);
/** platform: every service in one process; services: one process per service behind the gateway; in-process: no broker. */
const TOPOLOGY = env.BENCH_TOPOLOGY ?? 'platform';
/** How events travel, for the headline. */
const EVENTS = TOPOLOGY === 'in-process' ? 'events in-process (no broker)' : `KAFKA_FETCH_MAX_WAIT ${FETCH_MAX_WAIT}`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-generation-'));
  const processes: SpawnedProcess[] = [];
  let remote: RemoteBackend | undefined;
  let deployment: Deployment | undefined;
  let db: PostgresConnection | undefined;
  try {
    if (REMOTE) remote = await startRemoteBackend(dataDir);
    const receiver = spawnTsProcess('bench/generation/receiver.main.ts');
    processes.push(receiver);
    const receiverPort = Number((await receiver.waitForLine(/^LISTENING \d+/, 60_000)).split(' ')[1]);
    const receiverUrl = `http://127.0.0.1:${receiverPort}`;

    // The platform on the real PostgreSQL, Kafka-protocol broker and S3 (deployment.ts).
    deployment = await startDeployment(TOPOLOGY, {
      KAFKA_FETCH_MAX_WAIT: FETCH_MAX_WAIT,
      INFERENCE_CONCURRENCY: CONCURRENCY,
      INFERENCE_PROGRESS_INTERVAL: env.BENCH_PROGRESS_INTERVAL ?? '1s',
      DATA_DIR: dataDir,
      ...remote?.platformEnv,
    });
    db = new PostgresConnection(deployment.database.url, { poolSize: 2 });
    const base = deployment.publicUrl;

    // Tenant, API key and webhook endpoint, as an operator and a client set them up.
    const call = async (method: string, path: string, auth: string, body?: unknown) => {
      const res = await fetch(`${path.startsWith('/admin/') ? deployment!.adminUrl : base}${path}`, {
        method,
        headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as Record<string, any>;
    };
    const admin = `Bearer ${deployment.adminToken}`;
    const { team } = await call('POST', '/admin/v1/teams', admin, { name: 'bench' });
    const { project } = await call('POST', `/admin/v1/teams/${team.id}/projects`, admin, { name: 'bench' });
    const key = await call('POST', '/admin/v1/api-keys', admin, { teamId: team.id, projectId: project.id, role: 'admin' });
    const auth = `Basic ${Buffer.from(`${key.apiKey}:${key.apiSecret}`).toString('base64')}`;
    await call('POST', `/v1/projects/${project.id}/webhook-endpoints`, auth, {
      url: `${receiverUrl}/hooks`,
      enabledEvents: ['generation.completed', 'generation.failed'],
    });
    const generate = async (mode: string, request: unknown): Promise<Sent> => {
      const sentAt = Date.now();
      try {
        const res = await fetch(`${base}/v1/generate/${mode}`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        const body = (await res.json()) as { job?: { jobId: string } };
        const answerMs = Date.now() - sentAt;
        if (res.status !== 200 || !body.job) return { sentAt, answerMs, error: `${res.status} ${JSON.stringify(body)}` };
        return { sentAt, answerMs, jobId: body.job.jobId };
      } catch (error) {
        return { sentAt, answerMs: Date.now() - sentAt, error: String(error) };
      }
    };
    const arrivals = async () =>
      (await (await fetch(`${receiverUrl}/arrivals`)).json()) as {
        completed: Record<string, number>;
        failed: Record<string, number>;
      };
    /** Waits until every job of `sent` has its completed or failed webhook. */
    const settle = async (sent: Sent[]) => {
      const ids = sent.flatMap((s) => (s.jobId ? [s.jobId] : []));
      return waitFor(
        async () => {
          const a = await arrivals();
          return ids.every((id) => a.completed[id] !== undefined || a.failed[id] !== undefined) ? a : undefined;
        },
        { timeoutMs: 600_000, intervalMs: 200, what: `${ids.length} generation webhooks` },
      );
    };
    const platformGroups = Object.keys(deployment.groups);
    const cpu = () =>
      cpuSnapshot({
        ...deployment!.groups,
        postgres: (cmd) => cmd.includes(deployment!.database.name),
        broker: (cmd) => cmd.includes('kafka-mock') && (!env.KAFKA_MOCK_CONTROL || cmd.includes(env.KAFKA_MOCK_CONTROL)),
        s3: (cmd) => cmd.includes('s3rver'),
        receiver: (_cmd, pid) => pid === receiver.child.pid,
        // The bench process: the sender and, in the remote run, the fake backend.
        bench: (_cmd, pid) => pid === process.pid,
      });

    // What the platform burns doing nothing (consumers' fetch loops, relays' and workers' polls):
    // every request pays its share of it at a low rate. Measured after the warm-up.
    const measureIdle = async () => {
      const platformCpu = (snapshot: Record<string, number>) => platformGroups.reduce((sum, g) => sum + snapshot[g], 0);
      const idleBefore = platformCpu(cpu());
      await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
      const idlePlatformMs = (platformCpu(cpu()) - idleBefore) / IDLE_SECONDS;
      console.log(`idle      platform CPU with no requests: ${Math.round(idlePlatformMs)} ms/s (${(idlePlatformMs / 10).toFixed(1)}% of a core)`);
    };

    if (remote) {
      await call('PUT', `/admin/v1/teams/${team.id}/credit-plan`, admin, {
        totalPeriodCreativeUnits: 10_000_000,
        periodStart: new Date(Date.now() - 86_400_000).toISOString(),
        periodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
      process.exitCode = await runRemote({ remote, db, generate, settle, cpu, measureIdle, concurrency: Number(CONCURRENCY), events: `${TOPOLOGY}, ${EVENTS}` });
      return;
    }

    const png = await benchInput(512);
    const { asset } = await call('POST', '/v1/assets', auth, {
      image: `data:image/png;base64,${png.toString('base64')}`,
      name: 'bench-512.png',
    });
    console.log(
      `bench/generation: pixelate ${JSON.stringify(PIXELATE_PARAMS)} on 512×512 (${Math.round(png.length / 1024)} KiB PNG); ` +
        `${RATE} requests/s for ${SECONDS} s; INFERENCE_CONCURRENCY ${CONCURRENCY}; ${TOPOLOGY}, ${EVENTS}`,
    );

    // (a) Baseline: the engine alone, in this process, on the same input.
    const engine = await measureEngineAlone(png, ENGINE_RUNS);
    const engineP50 = percentile(engine.ms, 50);
    console.log(
      `baseline  engine alone (decode → pixelate → PNG, ${ENGINE_RUNS} runs): ${summary(engine.ms)}; CPU ${engine.cpuMsPerRun.toFixed(1)} ms/run`,
    );

    // Warm-up: connections, consumers' first fetches, code paths compiled.
    const pixelate = () => generate('pixelate', { image: asset.id, ...PIXELATE_PARAMS });
    await settle(await Promise.all(Array.from({ length: 10 }, pixelate)));
    await measureIdle();

    // (b) The real path at a steady rate, on an absolute schedule (open loop: a slow answer delays nothing).
    const cpuBefore = cpu();
    const total = Math.round(RATE * SECONDS);
    const t0 = Date.now();
    let sendMs = 0;
    const sent = await openLoop(RATE, SECONDS, () => {
      // The last request's send time: when the schedule ended.
      sendMs = Date.now() - t0;
      return pixelate();
    });
    const final = await settle(sent);
    const cpuUsed = cpuDelta(cpuBefore, cpu());

    const ok = sent.filter((s) => s.jobId);
    const refused = sent.length - ok.length;
    const failed = ok.filter((s) => final.failed[s.jobId!] !== undefined).length;
    const done = ok.filter((s) => final.completed[s.jobId!] !== undefined);
    const endToEnd = done.map((s) => final.completed[s.jobId!] - s.sentAt).sort((a, b) => a - b);
    const answers = ok.map((s) => s.answerMs).sort((a, b) => a - b);
    const lastArrival = Math.max(...done.map((s) => final.completed[s.jobId!]));
    const completedPerSecond = Math.round((done.length / (lastArrival - t0)) * 1000 * 10) / 10;
    // Overhead: end to end less the engine's own (median) time alone: the platform's share.
    const overhead = endToEnd.map((ms) => ms - engineP50);
    const p99Overhead = percentile(overhead, 99);

    console.log(
      `real path POST → job → worker → asset → job → webhook 200: ${done.length} completed of ${sent.length} sent ` +
        `(${refused} refused, ${failed} failed) at ${Math.round((total / sendMs) * 1000 * 10) / 10} requests/s sent, ${completedPerSecond} completed/s`,
    );
    if (refused > 0) console.log(`          first refusal: ${sent.find((s) => s.error)?.error}`);
    console.log(`          HTTP answer (job created):     ${summary(answers)}`);
    console.log(`          POST → generation.completed:   ${summary(endToEnd)}`);
    console.log(`          overhead (end to end − engine p50 ${Math.round(engineP50)} ms): ${summary(overhead)}`);
    console.log(`          CPU during the run: ${cpuUsed} (per request: ${perRequest(cpuUsed, total)})`);

    await printStages(db, done.map((s) => ({ jobId: s.jobId!, sentAt: s.sentAt, arrivedAt: final.completed[s.jobId!] })));

    const pass = refused === 0 && failed === 0 && done.length === total && completedPerSecond >= RATE * 0.95 && p99Overhead <= TARGET_P99_OVERHEAD_MS;
    console.log(
      `${pass ? 'PASS' : 'FAIL'}: p99 overhead ${p99Overhead} ms at ${RATE} requests/s (target ≤ ${TARGET_P99_OVERHEAD_MS} ms at ${TARGET_RATE}/s), ` +
        `${completedPerSecond} completed/s, ${done.length}/${total} completed`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    // BENCH_LOG=<file>: the platform's log (warnings, errors) for a look afterwards.
    if (env.BENCH_LOG && deployment) writeFileSync(env.BENCH_LOG, deployment.log());
    await db?.close().catch(() => undefined);
    await Promise.all([...processes.map((p) => p.kill('SIGTERM')), deployment?.stop()]);
    await remote?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
