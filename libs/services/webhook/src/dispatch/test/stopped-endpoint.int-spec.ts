import { WebhookReceiver, type ServiceHarness, type Tenant } from '@genasset/testing';
import {
  createEndpoint,
  endpointsPath,
  PERMISSIVE,
  projectOwner,
  startWebhookHarness,
  type Owner,
} from '../../../test/support/webhook-harness';
import { enqueue, stored } from './support/webhook-rows';

jest.setTimeout(120_000);

const ANSWER_AFTER_MS = 1_500;

/**
 * Deliveries a worker already holds but has not started (waiting for a free
 * slot of a busy endpoint) must not be sent once the endpoint is paused or
 * deleted: docs/webhooks.md "Pausing and deleting" (paused: not attempted while
 * paused; deleted: nothing more is sent), spec "enabled: false pauses deliveries".
 */
describe('deliveries waiting in a worker when their endpoint is paused or deleted', () => {
  let harness: ServiceHarness;
  let tenant: Tenant;
  let owner: Owner;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    // One attempt at a time per endpoint: the worker holds a second claimed delivery waiting.
    harness = await startWebhookHarness({
      ...PERMISSIVE,
      WEBHOOK_ENDPOINT_CONCURRENCY: '1',
      WEBHOOK_POLL_INTERVAL: '100ms',
      WEBHOOK_RETRY_DELAYS: '300ms,600ms',
      WEBHOOK_TIMEOUT: '5s',
    });
    tenant = await harness.tenant();
    owner = projectOwner(tenant);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await harness?.close();
  });

  async function busyEndpoint() {
    const receiver = await WebhookReceiver.start({ respondWith: { status: 200, delayMs: ANSWER_AFTER_MS } });
    receivers.push(receiver);
    const endpoint = await createEndpoint(harness, owner, { url: receiver.url, enabledEvents: ['*'] });
    const ids = await enqueue(harness.db, endpoint.id, 4);
    // The first attempt is in flight (the receiver holds it); the next one waits in the worker.
    await receiver.waitForRequests(1);
    return { receiver, endpoint, ids };
  }

  it('pausing: a waiting delivery is not sent while paused, and goes out after resuming', async () => {
    const { receiver, endpoint, ids } = await busyEndpoint();
    const pause = await harness.request('PUT', `${endpointsPath(owner)}/${endpoint.id}`, {
      auth: owner.auth,
      body: { enabled: false },
    });
    expect(pause.status).toBe(200);

    // Long enough for the attempt in flight to end and any waiting one to start.
    await new Promise((r) => setTimeout(r, ANSWER_AFTER_MS + 2_000));
    expect(receiver.requests).toHaveLength(1);
    const pending = await Promise.all(ids.map((id) => stored(harness.db, id)));
    expect(pending.filter((d) => d.status === 'success')).toHaveLength(1);
    expect(pending.filter((d) => d.status === 'created')).toHaveLength(3);

    const resume = await harness.request('PUT', `${endpointsPath(owner)}/${endpoint.id}`, {
      auth: owner.auth,
      body: { enabled: true },
    });
    expect(resume.status).toBe(200);
    const all = await receiver.waitForRequests(4, 20_000);
    expect(new Set(all.map((r) => JSON.parse(r.rawBody.toString()).id))).toEqual(new Set(ids));
  });

  it('changing the URL: deliveries the worker was holding go to the new URL', async () => {
    const { receiver: before, endpoint, ids } = await busyEndpoint();
    const after = await WebhookReceiver.start();
    receivers.push(after);
    const moved = await harness.request('PUT', `${endpointsPath(owner)}/${endpoint.id}`, {
      auth: owner.auth,
      body: { url: `${after.url}/moved` },
    });
    expect(moved.status).toBe(200);

    const atNew = await after.waitForRequests(3, 20_000);
    expect(before.requests).toHaveLength(1);
    const sent = [...before.requests, ...atNew].map((r) => JSON.parse(r.rawBody.toString()).id);
    expect(new Set(sent)).toEqual(new Set(ids));
  });

  it('deleting: nothing more is sent, not even a delivery the worker was holding', async () => {
    const { receiver, endpoint } = await busyEndpoint();
    const deleted = await harness.request('DELETE', `${endpointsPath(owner)}/${endpoint.id}`, {
      auth: owner.auth,
    });
    expect(deleted.status).toBe(200);

    await new Promise((r) => setTimeout(r, ANSWER_AFTER_MS + 2_000));
    expect(receiver.requests).toHaveLength(1);
  });
});
