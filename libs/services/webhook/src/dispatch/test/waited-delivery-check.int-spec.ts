import { metricsRegistry } from '@genasset/observability';
import { WebhookReceiver, waitFor, type ServiceHarness } from '@genasset/testing';
import { startDispatchHarness } from './support/dispatch-test.module';
import { createEndpoint, enqueue, stored } from './support/webhook-rows';

jest.setTimeout(60_000);

const givenBack = async () => {
  const metric = await metricsRegistry.getSingleMetric('webhook_dispatch_given_back_total')?.get();
  return metric?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
};

/**
 * A delivery that waited in the worker for its endpoint's slot is checked
 * against the endpoint as stored before it starts. The API's pause, delete or
 * re-point also sends a recall notice, but that reaches the worker
 * asynchronously: here the endpoint is changed in the database with no notice
 * at all, so only the check can hold the delivery back (docs/webhooks.md
 * "Pausing and deleting").
 */
describe('a delivery that waited for a slot is checked against its endpoint before it starts', () => {
  let harness: ServiceHarness;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    // One attempt at a time per endpoint: a second claimed delivery waits in the worker.
    harness = await startDispatchHarness({
      WEBHOOK_ENDPOINT_CONCURRENCY: '1',
      WEBHOOK_POLL_INTERVAL: '100ms',
      WEBHOOK_TIMEOUT: '5s',
      // The worker read the endpoint about 1 s before the waiting delivery's turn (its claim): read again at the default too.
      WEBHOOK_RECHECK_AFTER: '100ms',
    });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await harness?.close();
  });

  async function busyEndpoint() {
    const receiver = await WebhookReceiver.start({ respondWith: { status: 200, delayMs: 1_000 } });
    receivers.push(receiver);
    const endpoint = await createEndpoint(harness.db, { url: receiver.url });
    const ids = await enqueue(harness.db, endpoint.id, 2);
    await receiver.waitForRequests(1);
    const first = (JSON.parse(receiver.requests[0].rawBody.toString()) as { id: string }).id;
    return { receiver, endpoint, first, waiting: ids.find((id) => id !== first)! };
  }

  it('paused with no notice: the waiting delivery is given back unsent, and goes out after the resume', async () => {
    const { receiver, endpoint, first, waiting } = await busyEndpoint();
    const before = await givenBack();
    await harness.db.query(`UPDATE webhooks.webhook_endpoints SET enabled = false WHERE id = $1`, [endpoint.id]);

    await waitFor(async () => (await givenBack()) > before, { timeoutMs: 10_000, what: 'the waiting delivery given back' });
    await waitFor(async () => (await stored(harness.db, first)).status === 'success', {
      timeoutMs: 10_000,
      what: 'the first attempt recorded',
    });
    expect(receiver.requests).toHaveLength(1);
    expect(await stored(harness.db, waiting)).toMatchObject({ status: 'created', attempt_count: 0 });

    await harness.db.query(`UPDATE webhooks.webhook_endpoints SET enabled = true WHERE id = $1`, [endpoint.id]);
    await harness.db.query(`SELECT pg_notify('webhooks_deliveries', '')`);
    const all = await receiver.waitForRequests(2, 10_000);
    expect(JSON.parse(all[1].rawBody.toString()).id).toBe(waiting);
  });

  it('re-pointed with no notice: the waiting delivery goes to the new URL', async () => {
    const { receiver, endpoint, waiting } = await busyEndpoint();
    const moved = await WebhookReceiver.start();
    receivers.push(moved);
    await harness.db.query(`UPDATE webhooks.webhook_endpoints SET url = $2 WHERE id = $1`, [endpoint.id, moved.url]);

    const [request] = await moved.waitForRequests(1, 10_000);
    expect(JSON.parse(request.rawBody.toString()).id).toBe(waiting);
    expect(receiver.requests).toHaveLength(1);
  });
});
