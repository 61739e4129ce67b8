import { waitFor, type ServiceHarness } from '@genasset/testing';

/** A row of webhooks.webhook_deliveries as the database holds it. */
export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  source_event_id: string;
  type: string;
  status: string;
  payload: Record<string, unknown>;
  attempt_count: number;
  next_attempt_at: Date | null;
};

/** Reads delivery records straight from the database (what intake wrote, whatever the API shows). */
export function deliveryRows(harness: () => ServiceHarness) {
  const rowsOf = (sourceEventId: string) =>
    harness().db.query<DeliveryRow>(
      'SELECT * FROM webhooks.webhook_deliveries WHERE source_event_id = $1 ORDER BY endpoint_id',
      [sourceEventId],
    );
  return {
    rowsOf,
    /** Waits until a fact's deliveries exist. One statement writes all of a fact's deliveries: once one is there, all are. */
    deliveriesFor: (sourceEventId: string, count = 1) =>
      waitFor(
        async () => {
          const rows = await rowsOf(sourceEventId);
          return rows.length >= count ? rows : undefined;
        },
        { timeoutMs: 30_000, what: `${count} deliveries of ${sourceEventId}` },
      ),
  };
}
