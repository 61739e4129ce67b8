import { appendFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { PostgresConnection } from '@genasset/persistence';
import { FakeOpenai } from '@genasset/testing';
import { cpuDelta } from '../webhooks/cpu';
import { openLoop, percentile, perRequest, printStages, summary, type Sent } from './stages';

/**
 * bench/generation's remote-backend run (BENCH_BACKEND=openai): txt2img through an OpenAI-compatible
 * backend (the fake of libs/testing, in this process) that holds each job a fixed time. Overhead =
 * POST → `generation.completed` less the time the backend held that job (measured by the fake,
 * from the request's arrival to its answer's last byte): what the platform adds around a backend.
 * Two loads at the same rate on the same platform, as issue #19 item 11 asks: ~rate × 1 s jobs in
 * flight, then 200 in flight (the backend holds each job 200 / rate s). Bursts (every job of one
 * sent at once) are a capacity check, printed but not judged.
 */

const env = process.env;
const BACKEND_MS = Number(env.BENCH_BACKEND_MS ?? 1000);
const RATE = Number(env.BENCH_RATE ?? 10);
const SECONDS = Number(env.BENCH_SECONDS ?? 20);
/** The second steady phase: this many jobs in flight at the same rate (0: skip it). */
const IN_FLIGHT = Number(env.BENCH_IN_FLIGHT ?? 200);
/** Jobs at RATE before the first phase, not measured. */
const WARMUP_SECONDS = Number(env.BENCH_WARMUP_SECONDS ?? 10);
/** Bursts, comma-separated sizes: each sends that many jobs at once (default none). */
const BURSTS = (env.BENCH_BURSTS ?? '').split(',').filter(Boolean).map(Number);
const TARGET_P99_OVERHEAD_MS = 150;
const KEY_ENV = 'BENCH_OPENAI_KEY';
const TXT2IMG = { modelId: 'bench', width: 512, height: 512, numSamples: 1 };

export interface RemoteBackend {
  platformEnv: Record<string, string>;
  /** The most jobs the backend had at once since the last call (resets the count). */
  peak(): number;
  /** How long the backend holds each job from now on. */
  hold(ms: number): void;
  /** How long the backend held the job whose prompt this was (its last call, if retried). */
  heldMs(prompt: string): number | undefined;
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
    hold: (ms) => (fake.options.delayMs = ms),
    heldMs: (prompt) => fake.requests.findLast((r) => r.body.prompt === prompt)?.heldMs,
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

/** A job sent, with its prompt (unique: the fake's record of the job is found by it). */
type SentJob = Sent & { prompt: string };

/** Runs the two steady phases and the bursts; the exit code (0 PASS, 1 FAIL). */
export async function runRemote(run: RemoteRun): Promise<number> {
  console.log(
    `bench/generation remote: txt2img through an openai backend holding each job ${BACKEND_MS} ms (backend concurrency 256); ` +
      `INFERENCE_CONCURRENCY ${run.concurrency}; ${run.events}; load average ${load()}`,
  );
  let sentCount = 0;
  const txt2img = async (): Promise<SentJob> => {
    const prompt = `a lighthouse at dusk, job ${++sentCount}`;
    return { ...(await run.generate('txt2img', { ...TXT2IMG, prompt })), prompt };
  };
  /** Jobs at RATE for `seconds`, open loop. */
  const steady = (seconds: number) => openLoop(RATE, seconds, txt2img);
  // Warm-up at the phases' own rate, not measured: the platform's hot paths are compiled (V8
  // optimizes a function after many calls) and its pools and caches filled before the first figure.
  run.remote.hold(BACKEND_MS);
  await run.settle(await steady(WARMUP_SECONDS));
  await run.measureIdle();
  const judged: Phase[] = [];
  judged.push(await phase(run, `${RATE} jobs/s for ${SECONDS} s (~${Math.round((RATE * BACKEND_MS) / 1000)} in flight)`, () => steady(SECONDS)));
  console.log(`          load average ${load()}`);
  if (IN_FLIGHT > 0) {
    // The same rate with IN_FLIGHT jobs at the backend at once: it holds each one IN_FLIGHT / RATE s.
    // Only the jobs sent once that many are in flight are measured (the first IN_FLIGHT / RATE s ramp up).
    const holdMs = Math.round((IN_FLIGHT / RATE) * 1000);
    run.remote.hold(holdMs);
    judged.push(
      await phase(run, `${RATE} jobs/s for ${SECONDS} s (${IN_FLIGHT} in flight)`, () => steady(holdMs / 1000 + SECONDS), IN_FLIGHT),
    );
    run.remote.hold(BACKEND_MS);
    console.log(`          load average ${load()}`);
  }
  for (const size of BURSTS) {
    await phase(run, `a burst of ${size} jobs (${size} in flight; capacity, not judged)`, () => Promise.all(Array.from({ length: size }, txt2img)));
    console.log(`          load average ${load()}`);
  }

  // "No growth": the 200-in-flight phase's p50 and p99 overhead within 1.5× (+ 20 ms for noise) of
  // the ~10-in-flight phase's.
  const [base, ...loaded] = judged;
  const grows = loaded.filter((p) => p.overheadP50 > base.overheadP50 * 1.5 + 20 || p.overheadP99 > base.overheadP99 * 1.5 + 20);
  const slow = judged.filter((p) => p.overheadP99 > TARGET_P99_OVERHEAD_MS);
  const pass = judged.every((p) => p.complete) && slow.length === 0 && grows.length === 0;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: overhead p99 ${judged.map((p) => `${p.overheadP99} ms (${p.label})`).join(', ')} ` +
      `(target ≤ ${TARGET_P99_OVERHEAD_MS} ms, and no growth with jobs in flight${grows.length ? `: grows in ${grows.map((p) => p.label).join(', ')}` : ''})`,
  );
  return pass ? 0 : 1;
}

/** Sends a phase's jobs, waits for their webhooks and prints its figures; jobs before `skip` (a ramp) run but are not measured. */
async function phase(run: RemoteRun, label: string, send: () => Promise<SentJob[]>, skip = 0): Promise<Phase> {
  run.remote.peak();
  const before = run.cpu();
  const t0 = Date.now();
  const all = await send();
  const final = await run.settle(all);
  const cpuUsed = cpuDelta(before, run.cpu());
  const sent = all.slice(skip);
  const ok = sent.filter((s) => s.jobId);
  const done = ok.filter((s) => final.completed[s.jobId!] !== undefined);
  const endToEnd = (s: SentJob) => final.completed[s.jobId!] - s.sentAt;
  // The backend's own time for each job, as the fake measured it (the nominal hold if it has no record).
  const held = (s: SentJob) => run.remote.heldMs(s.prompt) ?? BACKEND_MS;
  const overheads = done.map((s) => endToEnd(s) - held(s));
  const lastArrival = Math.max(...done.map((s) => final.completed[s.jobId!]));
  // BENCH_DUMP=<file>: each job's send time (ms into the phase) and overhead, one JSON line per phase.
  if (env.BENCH_DUMP)
    appendFileSync(env.BENCH_DUMP, `${JSON.stringify({ label, jobs: done.map((s, i) => [s.sentAt - t0, Math.round(overheads[i])]) })}\n`);
  const sorted = (values: number[]) => values.map(Math.round).sort((a, b) => a - b);
  console.log(
    `${label}: ${done.length} completed of ${sent.length} measured (${sent.length - ok.length} refused, ` +
      `${ok.filter((s) => final.failed[s.jobId!] !== undefined).length} failed${skip ? `; ${skip} sent before them to ramp up` : ''}) ` +
      `in ${((lastArrival - t0) / 1000).toFixed(1)} s; at most ${run.remote.peak()} at the backend at once`,
  );
  if (ok.length < sent.length) console.log(`          first refusal: ${sent.find((s) => s.error)?.error}`);
  console.log(`          HTTP answer (job created):     ${summary(sorted(ok.map((s) => s.answerMs)))}`);
  console.log(`          POST → generation.completed:   ${summary(sorted(done.map(endToEnd)))}`);
  console.log(`          the backend held each job:     ${summary(sorted(done.map(held)))}`);
  console.log(`          overhead (end to end − the backend's time for that job): ${summary(sorted(overheads))}`);
  console.log(`          CPU during the phase: ${cpuUsed} (per job: ${perRequest(cpuUsed, all.length)})`);
  await printStages(run.db, done.map((s) => ({ jobId: s.jobId!, sentAt: s.sentAt, arrivedAt: final.completed[s.jobId!] })));
  const overhead = sorted(overheads);
  return {
    label,
    jobs: sent.length,
    overheadP50: percentile(overhead, 50),
    overheadP99: percentile(overhead, 99),
    complete: done.length === sent.length,
  };
}
