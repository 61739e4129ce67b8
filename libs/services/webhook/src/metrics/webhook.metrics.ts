import { counter, gauge, histogram, ScrapeSources, withinMs } from '@genasset/observability';
import type { DatabaseConnection } from '@genasset/persistence';
import type { AttemptOutcome, AttemptResult } from '../dispatch/attempt-outcome';
import { SERVICE_ERROR_CODE } from '../dispatch/attempt-outcome';

/** Databases whose delivery queue the scrape reads (one per running dispatcher app). */
export const webhookQueueSources = new ScrapeSources<DatabaseConnection>();

export const webhookAttempts = counter({
  name: 'webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: success, http_4xx, http_5xx, http_other, timeout, network_error, service_error',
  labelNames: ['outcome'] as const,
});

export const webhookAttemptDuration = histogram({
  name: 'webhook_attempt_duration_seconds',
  help: 'Duration of webhook delivery attempts (send to answer or failure), by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

export const webhookDeliveries = counter({
  name: 'webhook_deliveries_total',
  help: 'Recorded attempt results by what became of the delivery: delivered, retry_scheduled, failed (attempts exhausted)',
  labelNames: ['result'] as const,
});

export const webhookDispatchTaken = counter({
  name: 'webhook_dispatch_taken_total',
  help: "Deliveries this process's delivery worker took on, by how: handoff (written by this process's intake, leased to the worker) or claim (from the shared queue)",
  labelNames: ['source'] as const,
});

export const webhookDispatchGivenBack = counter({
  name: 'webhook_dispatch_given_back_total',
  help: "Deliveries this process's delivery worker gave back to the shared queue unattempted: they waited behind a slow endpoint until their attempt could outlive their lease",
});

// Queue gauges, read at scrape time through the partial index of pending
// deliveries (webhook_deliveries_due_idx): cost grows with the queue, not the table.
const QUEUE_SQL = `
  SELECT status,
         count(*)::int AS total,
         (count(*) FILTER (WHERE next_attempt_at <= now()))::int AS due,
         coalesce(EXTRACT(EPOCH FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)::float8 AS oldest_due_s
    FROM webhooks.webhook_deliveries
   WHERE status IN ('created', 'retrying')
   GROUP BY status`;

type QueueRow = {
  status: string;
  total: number;
  due: number;
  oldest_due_s: number;
};

let lastQueue: Promise<QueueRow[]> | undefined;
/** The three gauges share one query per scrape. */
function readQueue(): Promise<QueueRow[]> {
  lastQueue ??= (async () => {
    const rows: QueueRow[] = [];
    for (const db of webhookQueueSources.list())
      rows.push(...((await withinMs(3_000, () => db.query<QueueRow>(QUEUE_SQL))) ?? []));
    return rows;
  })().finally(() => setTimeout(() => (lastQueue = undefined), 1_000).unref());
  return lastQueue;
}

export const webhookQueue = gauge({
  name: 'webhook_queue_deliveries',
  help: 'Pending deliveries by status: created (first attempt pending) and retrying (the retry queue)',
  labelNames: ['status'] as const,
  async collect() {
    this.reset();
    this.set({ status: 'created' }, 0);
    this.set({ status: 'retrying' }, 0);
    for (const row of await readQueue()) this.inc({ status: row.status }, row.total);
  },
});

export const webhookQueueDue = gauge({
  name: 'webhook_queue_due_deliveries',
  help: 'Pending deliveries already due and not yet attempted (the dispatch backlog), by status',
  labelNames: ['status'] as const,
  async collect() {
    this.reset();
    this.set({ status: 'created' }, 0);
    this.set({ status: 'retrying' }, 0);
    for (const row of await readQueue()) this.inc({ status: row.status }, row.due);
  },
});

export const webhookQueueOldestDue = gauge({
  name: 'webhook_queue_oldest_due_age_seconds',
  help: 'How long the longest-waiting due delivery has been due (0 when none is due)',
  async collect() {
    this.set(Math.max(0, ...(await readQueue()).map((r) => r.oldest_due_s)));
  },
});

export function attemptOutcomeLabel(outcome: AttemptOutcome): string {
  if (outcome.ok) return 'success';
  if (outcome.responseStatusCode === SERVICE_ERROR_CODE) return 'service_error';
  if (outcome.error?.startsWith('HTTP ')) {
    const cls = Math.floor(outcome.responseStatusCode / 100);
    return cls === 4 ? 'http_4xx' : cls === 5 ? 'http_5xx' : 'http_other';
  }
  return outcome.error?.startsWith('timeout') ? 'timeout' : 'network_error';
}

/** One finished attempt (the worker calls this as results come in). */
export function observeAttempt(outcome: AttemptOutcome): string {
  const label = attemptOutcomeLabel(outcome);
  webhookAttempts.inc({ outcome: label });
  webhookAttemptDuration.observe({ outcome: label }, outcome.durationMs / 1000);
  return label;
}

/** A recorded batch: `retries` deliveries were left retrying, the other failures are final. */
export function observeRecorded(batch: readonly AttemptResult[], retries: number): void {
  const delivered = batch.filter((r) => r.ok).length;
  webhookDeliveries.inc({ result: 'delivered' }, delivered);
  webhookDeliveries.inc({ result: 'retry_scheduled' }, retries);
  webhookDeliveries.inc({ result: 'failed' }, Math.max(0, batch.length - delivered - retries));
}
