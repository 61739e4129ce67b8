import type { SqlClient } from '@genasset/messaging';

/**
 * NOTIFY channel on which new or resumed due deliveries are announced, so idle
 * delivery workers (LISTEN) start at once instead of waiting for their next
 * poll. The payload is a hint (the number of new deliveries, or empty), never
 * data: a missed notification only costs the workers' poll interval.
 */
export const DELIVERIES_CHANNEL = 'webhooks_deliveries';

/** Inside the writing transaction: PostgreSQL delivers it at commit, and not at all on rollback. */
export async function announceDueDeliveries(tx: SqlClient, count?: number): Promise<void> {
  await tx.$executeRawUnsafe(
    'SELECT pg_notify($1, $2)',
    DELIVERIES_CHANNEL,
    count === undefined ? '' : String(count),
  );
}
