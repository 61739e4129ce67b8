import type { SqlClient } from '@genasset/messaging';
import { DELIVERIES_CHANNEL, RECALLED_ENDPOINTS_CHANNEL } from './delivery-wakeup';

/** Inside the writing transaction: PostgreSQL delivers it at commit, and not at all on rollback. */
export async function announceDueDeliveries(tx: SqlClient, count?: number): Promise<void> {
  await tx.$executeRawUnsafe(
    'SELECT pg_notify($1, $2)',
    DELIVERIES_CHANNEL,
    count === undefined ? '' : String(count),
  );
}

/** Inside the pausing, deleting or re-pointing transaction: delivered at commit, never on rollback. */
export async function recallHeldDeliveries(tx: SqlClient, endpointId: string): Promise<void> {
  await tx.$executeRawUnsafe('SELECT pg_notify($1, $2)', RECALLED_ENDPOINTS_CHANNEL, endpointId);
}
