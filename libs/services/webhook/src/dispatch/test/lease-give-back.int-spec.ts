import { metricsRegistry } from '@genasset/observability';
import { WebhookReceiver, waitFor, type ServiceHarness } from '@genasset/testing';
import { startDispatchHarness } from './support/dispatch-test.module';
import { createEndpoint, enqueue, stored } from './support/webhook-rows';

const givenBack = async () => {
  const metric = await metricsRegistry.getSingleMetric('webhook_dispatch_given_back_total')?.get();
  return metric?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
};

/**
 * A delivery waiting behind a slow endpoint must not start an attempt that
 * could outlive its lease (another replica could then claim and send it
 * again): the worker gives it back to the queue and claims it afresh.
 * Lease 2.5 s (timeout 2 s + margin 0.5 s): an attempt may start up to
 * 0.25 s after its lease was taken.
 */
describe('webhook delivery behind a slow endpoint', () => {
  let harness: ServiceHarness;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    harness = await startDispatchHarness({
      WEBHOOK_TIMEOUT: '2s',
      WEBHOOK_LEASE_MARGIN: '500ms',
      WEBHOOK_POLL_INTERVAL: '200ms',
      WEBHOOK_ENDPOINT_CONCURRENCY: '2',
    });
    hooks = await WebhookReceiver.start({ respondWith: { status: 200, delayMs: 800 } });
  });
  afterAll(async () => {
    await hooks?.close();
    await harness?.close();
  });

  it('gives back what waited too long, then delivers every one exactly once', async () => {
    const before = await givenBack();
    const endpoint = await createEndpoint(harness.db, { url: hooks.url });
    // One claim takes 4 (2 per endpoint × prefetch 2): 2 start, 2 wait 0.8 s, longer than their 0.25 s window.
    const ids = await enqueue(harness.db, endpoint.id, 6);

    const deliveries = await waitFor(
      async () => {
        const all = await Promise.all(ids.map((id) => stored(harness.db, id)));
        return all.every((d) => d.status === 'success') ? all : undefined;
      },
      { timeoutMs: 20_000, what: 'every delivery delivered' },
    );
    expect(deliveries.map((d) => d.attempts.length)).toEqual(ids.map(() => 1));
    const received = hooks.requests.map((r) => (JSON.parse(r.rawBody.toString()) as { id: string }).id);
    expect(received.sort()).toEqual([...ids].sort());
    expect(await givenBack()).toBeGreaterThan(before);
  });
});
