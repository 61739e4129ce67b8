/**
 * NOTIFY channel on which new or resumed due deliveries are announced, so idle
 * delivery workers (LISTEN) start at once instead of waiting for their next
 * poll. The payload is a hint (the number of new deliveries, or empty), never
 * data: a missed notification only costs the workers' poll interval.
 */
export const DELIVERIES_CHANNEL = 'webhooks_deliveries';

/**
 * NOTIFY channel on which an endpoint that was paused, deleted or given a new
 * URL is announced (payload: its id). Delivery workers give back the
 * deliveries of that endpoint they hold but have not started, so once the
 * change has committed nothing waiting in a worker is sent to a paused or
 * deleted endpoint, or to its former URL (docs/webhooks.md, "Paused and
 * deleted endpoints").
 */
export const RECALLED_ENDPOINTS_CHANNEL = 'webhooks_endpoints_recalled';

// The statements that send them, inside the writing transaction: delivery-wakeup.repository.ts.
