import { ApiError } from '@genasset/http';
import { DELIVERIES_CHANNEL } from './delivery-wakeup';
import { ResendDelivery } from './resend-delivery.use-case';
import { FakeRedeliveries } from './test/fake-redeliveries';

const owner = { type: 'project', id: 'proj_1', teamId: 'team_1' } as const;
const T = new Date('2026-11-21T13:00:00.000Z');

async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; apiError: string; infos: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return { status: error.getStatus(), apiError: error.apiError, infos: error.infos };
}

describe('ResendDelivery', () => {
  let fake: FakeRedeliveries;
  let resend: ResendDelivery;

  beforeEach(() => {
    fake = new FakeRedeliveries();
    fake.deliveries.push(
      { id: 'whevent_1', status: 'failed', createdAt: T },
      { id: 'whevent_2', status: 'success', createdAt: T },
      { id: 'whevent_3', status: 'retrying', createdAt: T },
    );
    resend = new ResendDelivery(fake.asRepository());
  });

  it('queues a new delivery of the event and wakes the workers; the original is untouched', async () => {
    const { webhookEvent } = await resend.execute(owner, 'we_1', 'whevent_1');
    expect(webhookEvent).toMatchObject({ status: 'created', attempts: [], resendOf: 'whevent_1' });
    expect(webhookEvent.id).toMatch(/^whevent_/);
    expect(webhookEvent.payload).toMatchObject({ id: 'whevent_1' });
    expect(fake.deliveries[0]).toEqual({ id: 'whevent_1', status: 'failed', createdAt: T });
    expect(fake.notified).toEqual([`${DELIVERIES_CHANNEL}:1`]);
    // A resend of the resend, once final, names the same first delivery.
    fake.deliveries.find((d) => d.id === webhookEvent.id)!.status = 'failed';
    expect((await resend.execute(owner, 'we_1', webhookEvent.id)).webhookEvent.resendOf).toBe('whevent_1');
  });

  it('resends a successful delivery too (an explicit request)', async () => {
    expect((await resend.execute(owner, 'we_1', 'whevent_2')).webhookEvent.resendOf).toBe('whevent_2');
  });

  it('404 for an unknown or foreign endpoint, and for a delivery not on it, before any other answer', async () => {
    fake.endpoint = { id: 'we_1', enabled: false };
    expect(await refusal(resend.execute(owner, 'we_2', 'whevent_1'))).toMatchObject({
      status: 404,
      infos: { id: 'we_2' },
    });
    expect(await refusal(resend.execute(owner, 'we_1', 'whevent_9'))).toMatchObject({
      status: 404,
      infos: { id: 'whevent_9' },
    });
  });

  it('409 for a paused endpoint, and while a delivery of the event is pending; nothing written or announced', async () => {
    fake.endpoint = { id: 'we_1', enabled: false };
    expect(await refusal(resend.execute(owner, 'we_1', 'whevent_1'))).toEqual({
      status: 409,
      apiError: 'webhook_endpoint_paused',
      infos: { webhookEndpointId: 'we_1' },
    });
    fake.endpoint = { id: 'we_1', enabled: true };
    expect(await refusal(resend.execute(owner, 'we_1', 'whevent_3'))).toEqual({
      status: 409,
      apiError: 'webhook_event_pending',
      infos: { eventId: 'whevent_3', pendingWebhookEventId: 'whevent_3' },
    });
    const first = await resend.execute(owner, 'we_1', 'whevent_1');
    expect(await refusal(resend.execute(owner, 'we_1', 'whevent_1'))).toMatchObject({
      apiError: 'webhook_event_pending',
      infos: { pendingWebhookEventId: first.webhookEvent.id },
    });
    expect(fake.deliveries).toHaveLength(4);
    expect(fake.notified).toHaveLength(1);
  });
});
