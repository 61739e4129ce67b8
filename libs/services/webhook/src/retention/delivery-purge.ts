import { errorMessage } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import type { DatabaseConnection } from '@genasset/persistence';

/** Rows deleted per statement: short transactions, no long lock on the table. */
export const PURGE_BATCH = 5_000;

export interface PurgeOptions {
  /** Deliveries created longer ago than this are deleted (spec: 90 days). */
  retentionMs: number;
  /** Time between runs. */
  intervalMs: number;
  batchSize?: number;
}

/**
 * Deletes deliveries older than the retention (their attempts are in the row)
 * in batches, whatever their status: a delivery still
 * pending after 90 days (its endpoint stayed paused) is dropped unsent.
 * Runs every interval on every replica, but a transaction-scoped advisory lock
 * lets only one replica delete at a time; the others skip the batch.
 */
export class DeliveryPurge {
  private readonly logger = new Logger('DeliveryPurge');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    private readonly db: DatabaseConnection,
    private readonly options: PurgeOptions,
  ) {}

  start(firstRunInMs = Math.min(10_000, this.options.intervalMs)): void {
    this.schedule(firstRunInMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /**
   * One run: batches until fewer than a full batch was deleted. Returns the
   * number of deliveries deleted, or -1 when another replica holds the lock.
   */
  async purgeOnce(): Promise<number> {
    const batchSize = this.options.batchSize ?? PURGE_BATCH;
    let total = 0;
    for (;;) {
      const deleted = await this.db.transaction(async (query) => {
        const [{ locked }] = await query<{ locked: boolean }>(
          `SELECT pg_try_advisory_xact_lock(hashtext('webhooks.delivery-purge')) AS locked`,
        );
        if (!locked) return -1;
        const rows = await query<{ n: number }>(
          // Each endpoint's oldest deliveries from its listing index (endpoint_id, created_at desc,
          // id desc): no index of its own on created_at for every delivery to write (migration 0005).
          `WITH doomed AS (
             SELECT old.id
               FROM webhooks.webhook_endpoints e
               CROSS JOIN LATERAL (
                 SELECT d.id FROM webhooks.webhook_deliveries d
                  WHERE d.endpoint_id = e.id AND d.created_at < now() - $1 * interval '1 millisecond'
                  ORDER BY d.created_at
                  LIMIT $2
               ) old
              LIMIT $2
           ), gone AS (
             DELETE FROM webhooks.webhook_deliveries d USING doomed WHERE d.id = doomed.id RETURNING 1
           )
           SELECT count(*)::int AS n FROM gone`,
          [this.options.retentionMs, batchSize],
        );
        return rows[0].n;
      });
      if (deleted < 0) return total === 0 ? -1 : total;
      total += deleted;
      if (deleted < batchSize || this.stopped) return total;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.purgeOnce()
        .then((deleted) => {
          if (deleted > 0) this.logger.log(`purged ${deleted} deliveries older than the retention`);
        })
        .catch((error: unknown) =>
          this.logger.warn(
            `purging old deliveries failed: ${errorMessage(error)}`,
          ),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
