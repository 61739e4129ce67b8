import type { PostgresConnection } from '@genasset/persistence';

// Figures shared by bench/generation's runs (main.ts: the image engine; remote.ts: a remote backend).

/** One POST /v1/generate/… as the bench sent it. */
export interface Sent {
  sentAt: number;
  /** HTTP answer time (ms after sentAt). */
  answerMs: number;
  jobId?: string;
  error?: string;
}

/**
 * Where the time went, per step, from the timestamps the services wrote (same clock: one machine):
 * POST → job row → work item (job.work hop) → in-progress → finalizing (engine done, output
 * stored) → asset row (asset-service made the output's asset) → success (job completed) → delivery row (job.succeeded hop) → receiver.
 */
export async function printStages(db: PostgresConnection, jobs: { jobId: string; sentAt: number; arrivedAt: number }[]): Promise<void> {
  const rows = await db.query<Record<string, number | string | null>>(
    `SELECT j.id,
            extract(epoch FROM j.created_at) * 1000 AS created,
            (SELECT extract(epoch FROM w.created_at) * 1000 FROM inference.work_items w WHERE w.job_id = j.id) AS work,
            (SELECT extract(epoch FROM min(h.date)) * 1000 FROM jobs.job_status_history h WHERE h.job_id = j.id AND h.status = 'in-progress') AS started,
            (SELECT extract(epoch FROM min(h.date)) * 1000 FROM jobs.job_status_history h WHERE h.job_id = j.id AND h.status = 'finalizing') AS finalizing,
            (SELECT extract(epoch FROM min(a.created_at)) * 1000 FROM assets.assets a WHERE a.job_id = j.id) AS asset,
            (SELECT extract(epoch FROM min(h.date)) * 1000 FROM jobs.job_status_history h WHERE h.job_id = j.id AND h.status = 'success') AS success,
            (SELECT extract(epoch FROM min(d.created_at)) * 1000 FROM webhooks.webhook_deliveries d
              WHERE d.payload->'data'->>'jobId' = j.id AND d.type = 'generation.completed') AS delivery
       FROM jobs.jobs j WHERE j.id = ANY($1::text[])`,
    [jobs.map((j) => j.jobId)],
  );
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  const steps: [string, string, string][] = [
    ['POST sent → job row', 'sent', 'created'],
    ['job row → work item (broker hop)', 'created', 'work'],
    ['work item → in-progress', 'work', 'started'],
    ['in-progress → finalizing (engine)', 'started', 'finalizing'],
    ['finalizing → asset row', 'finalizing', 'asset'],
    ['asset row → success (job.report hop)', 'asset', 'success'],
    ['success → delivery row (broker hop)', 'success', 'delivery'],
    ['delivery row → receiver', 'delivery', 'arrived'],
  ];
  console.log('          where the time went (p50 / p99 per step, from the services\' timestamps):');
  for (const [label, from, to] of steps) {
    const deltas = jobs
      .map((j) => {
        const r = byId.get(j.jobId);
        const at = (k: string) => (k === 'sent' ? j.sentAt : k === 'arrived' ? j.arrivedAt : r?.[k] == null ? NaN : Number(r[k]));
        return at(to) - at(from);
      })
      .filter((d) => !Number.isNaN(d))
      .sort((a, b) => a - b);
    console.log(`            ${label.padEnd(38)} ${percentile(deltas, 50)} / ${percentile(deltas, 99)} ms (${deltas.length} jobs)`);
  }
  // The tail, job by job: whether one step or every step is slow for the slowest jobs.
  const slowest = [...jobs].sort((a, b) => b.arrivedAt - b.sentAt - (a.arrivedAt - a.sentAt)).slice(0, 3);
  for (const j of slowest) {
    const r = byId.get(j.jobId);
    const at = (k: string) => (k === 'sent' ? j.sentAt : k === 'arrived' ? j.arrivedAt : r?.[k] == null ? NaN : Number(r[k]));
    console.log(
      `            a slowest job, ${j.arrivedAt - j.sentAt} ms: ${steps.map(([, from, to]) => Math.round(at(to) - at(from))).join(' + ')} ms`,
    );
  }
}

/**
 * Sends `rate` requests a second for `seconds` on an absolute schedule (open loop: a slow answer
 * delays no later request); resolves once every request has been answered.
 */
export async function openLoop<T>(rate: number, seconds: number, send: () => Promise<T>): Promise<T[]> {
  const pending: Promise<T>[] = [];
  const t0 = Date.now();
  for (let i = 0; i < Math.round(rate * seconds); i++) {
    const wait = t0 + (i * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send());
  }
  return Promise.all(pending);
}

/** "platform 1234 ms, postgres 567 ms" → the same per request. */
export function perRequest(cpuText: string, requests: number): string {
  return cpuText
    .split(', ')
    .map((part) => {
      const [name, ms] = part.split(' ');
      return `${name} ${(Number(ms) / requests).toFixed(1)} ms`;
    })
    .join(', ');
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
}

export function summary(sorted: number[]): string {
  return `p50 ${percentile(sorted, 50)} ms, p90 ${percentile(sorted, 90)} ms, p99 ${percentile(sorted, 99)} ms, max ${Math.round(sorted.at(-1) ?? NaN)} ms`;
}
