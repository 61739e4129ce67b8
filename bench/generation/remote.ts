import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { PostgresConnection } from '@genasset/persistence';
import { FakeOpenai } from '@genasset/testing';
import { cpuDelta } from '../webhooks/cpu';
import { percentile, perRequest, printStages, summary, type Sent } from './stages';

/**
 * bench/generation's remote-backend run (BENCH_BACKEND=openai): txt2img through an OpenAI-compatible
 * backend (the fake of libs/testing, in this process) that answers each job after a fixed time.
 * Overhead = POST → `generation.completed` less that time: what the platform adds around a
 * backend. Two loads on the same platform: a steady rate (rate × backend time jobs in flight)
 * and a burst (every job of it in flight at once).
 */

const env = process.env;
const BACKEND_MS = Number(env.BENCH_BACKEND_MS ?? 1000);
const RATE = Number(env.BENCH_RATE ?? 10);
const SECONDS = Number(env.BENCH_SECONDS ?? 20);
/** Bursts, comma-separated sizes: each sends that many jobs at once. */
const BURSTS = (env.BENCH_BURSTS ?? '200').split(',').filter(Boolean).map(Number);
const TARGET_P99_OVERHEAD_MS = 150;
const KEY_ENV = 'BENCH_OPENAI_KEY';
const TXT2IMG = { modelId: 'bench', prompt: 'a lighthouse at dusk', width: 512, height: 512, numSamples: 1 };

export interface RemoteBackend {
  platformEnv: Record<string, string>;
  /** The most jobs the backend had at once since the last call (resets the count). */
  peak(): number;
  close(): Promise<void>;
}

/** The fake backend and the backends file naming it (concurrency 256: the backend never queues). */
export async function startRemoteBackend(dir: string): Promise<RemoteBackend> {
  const key = 'sk-bench';
  const fake = await FakeOpenai.start({ apiKey: key, models: ['bench-image'], delayMs: BACKEND_MS });
  const file = join(dir, 'backends.json');
  writeFileSync(
    file,
    JSON.stringify({
      backends: {
        remote: {
          type: 'openai',
          url: fake.url,
          credentials: { scheme: 'bearer', tokenEnv: KEY_ENV },
          routes: ['txt2img'],
          models: { image: 'bench-image' },
          concurrency: 256,
          timeouts: { request: '60s', job: '10m' },
        },
      },
    }),
  );
  return {
    platformEnv: { INFERENCE_BACKENDS_FILE: file, [KEY_ENV]: key },
    peak: () => {
      const peak = fake.peakInFlight;
      fake.resetPeak();
      return peak;
    },
    close: () => fake.close(),
  };
}

interface RemoteRun {
  remote: RemoteBackend;
  db: PostgresConnection;
  generate: (mode: string, request: unknown) => Promise<Sent>;
  settle: (sent: Sent[]) => Promise<{ completed: Record<string, number>; failed: Record<string, number> }>;
  cpu: () => Record<string, number>;
  measureIdle: () => Promise<void>;
  concurrency: number;
  /** The topology and how events travel (broker and fetch wait, or in-process), for the headline. */
  events: string;
}

/** The machine's load average (1, 5, 15 min): the other sessions share these cores. */
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

interface Phase {
  label: string;
  jobs: number;
  overheadP50: number;
  overheadP99: number;
  complete: boolean;
}

/** Runs the steady phase and the bursts; the exit code (0 PASS, 1 FAIL). */
export async function runRemote(run: RemoteRun): Promise<number> {
  console.log(
    `bench/generation remote: txt2img through an openai backend answering after ${BACKEND_MS} ms (backend concurrency 256); ` +
      `INFERENCE_CONCURRENCY ${run.concurrency}; ${run.events}; load average ${load()}`,
  );
  const txt2img = () => run.generate('txt2img', TXT2IMG);
  await run.settle(await Promise.all(Array.from({ length: 10 }, txt2img))); // warm-up
  await run.measureIdle();

  const phases: Phase[] = [];
  // Steady: an absolute schedule (open loop), ~RATE × backend time jobs in flight.
  phases.push(
    await phase(run, `${RATE} jobs/s for ${SECONDS} s (~${Math.round((RATE * BACKEND_MS) / 1000)} in flight)`, async () => {
      const pending: Promise<Sent>[] = [];
      const t0 = Date.now();
      for (let i = 0; i < Math.round(RATE * SECONDS); i++) {
        const wait = t0 + (i * 1000) / RATE - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        pending.push(txt2img());
      }
      return Promise.all(pending);
    }),
  );
  console.log(`          load average ${load()}`);
  for (const size of BURSTS) {
    phases.push(await phase(run, `a burst of ${size} jobs (${size} in flight)`, () => Promise.all(Array.from({ length: size }, txt2img))));
    console.log(`          load average ${load()}`);
  }

  // "No growth": every phase's p50 and p99 overhead within 1.5× (+ 20 ms for noise) of the lowest
  // phase's — the one with the fewest jobs in flight when the machine keeps up.
  const least = { p50: Math.min(...phases.map((p) => p.overheadP50)), p99: Math.min(...phases.map((p) => p.overheadP99)) };
  const grows = phases.filter((p) => p.overheadP50 > least.p50 * 1.5 + 20 || p.overheadP99 > least.p99 * 1.5 + 20);
  const slow = phases.filter((p) => p.overheadP99 > TARGET_P99_OVERHEAD_MS);
  const pass = phases.every((p) => p.complete) && slow.length === 0 && grows.length === 0;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: overhead p99 ${phases.map((p) => `${p.overheadP99} ms (${p.label})`).join(', ')} ` +
      `(target ≤ ${TARGET_P99_OVERHEAD_MS} ms, and no growth with jobs in flight${grows.length ? `: grows in ${grows.map((p) => p.label).join(', ')}` : ''})`,
  );
  return pass ? 0 : 1;
}

async function phase(run: RemoteRun, label: string, send: () => Promise<Sent[]>): Promise<Phase> {
  run.remote.peak();
  const before = run.cpu();
  const t0 = Date.now();
  const sent = await send();
  const final = await run.settle(sent);
  const cpuUsed = cpuDelta(before, run.cpu());
  const ok = sent.filter((s) => s.jobId);
  const done = ok.filter((s) => final.completed[s.jobId!] !== undefined);
  const endToEnd = done.map((s) => final.completed[s.jobId!] - s.sentAt).sort((a, b) => a - b);
  const overhead = endToEnd.map((ms) => ms - BACKEND_MS);
  const lastArrival = Math.max(...done.map((s) => final.completed[s.jobId!]));
  console.log(
    `${label}: ${done.length} completed of ${sent.length} sent (${sent.length - ok.length} refused, ` +
      `${ok.filter((s) => final.failed[s.jobId!] !== undefined).length} failed) in ${((lastArrival - t0) / 1000).toFixed(1)} s; ` +
      `at most ${run.remote.peak()} at the backend at once`,
  );
  if (ok.length < sent.length) console.log(`          first refusal: ${sent.find((s) => s.error)?.error}`);
  console.log(`          HTTP answer (job created):     ${summary(ok.map((s) => s.answerMs).sort((a, b) => a - b))}`);
  console.log(`          POST → generation.completed:   ${summary(endToEnd)}`);
  console.log(`          overhead (end to end − backend ${BACKEND_MS} ms): ${summary(overhead)}`);
  console.log(`          CPU during the phase: ${cpuUsed} (per job: ${perRequest(cpuUsed, sent.length)})`);
  await printStages(run.db, done.map((s) => ({ jobId: s.jobId!, sentAt: s.sentAt, arrivedAt: final.completed[s.jobId!] })));
  return {
    label,
    jobs: sent.length,
    overheadP50: percentile(overhead, 50),
    overheadP99: percentile(overhead, 99),
    complete: done.length === sent.length,
  };
}
