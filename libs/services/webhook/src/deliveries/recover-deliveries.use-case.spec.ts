import { ApiError } from '@genasset/http';
import { loadWebhookConfig } from '../webhook.config';
import { RECOVER_BATCH, RecoverDeliveries } from './recover-deliveries.use-case';
import { FakeRedeliveries } from './test/fake-redeliveries';

const owner = { type: 'team', id: 'team_1', teamId: 'team_1' } as const;
const NOW = new Date('2026-11-21T13:00:00.000Z').getTime();
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(NOW - hours * HOUR);

async function fields(promise: Promise<unknown>): Promise<Record<string, string[]>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError) || error.getStatus() !== 400)
    throw new Error(`expected a 400, got ${String(error)}`);
  return (error.infos as { fields: Record<string, string[]> }).fields;
}

describe('RecoverDeliveries', () => {
  let fake: FakeRedeliveries;
  let recover: RecoverDeliveries;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate'] });
    fake = new FakeRedeliveries();
    recover = new RecoverDeliveries(fake.asRepository(), loadWebhookConfig({}));
  });
  afterEach(() => jest.useRealTimers());

  it('walks every batch from the end of the window down, one copy per event, and counts them', async () => {
    const count = RECOVER_BATCH * 2 + 1;
    for (let i = 0; i < count; i++)
      fake.deliveries.push({
        id: `whevent_${String(i).padStart(4, '0')}`,
        status: 'failed',
        createdAt: ago(1 + (i % 3)),
      });
    // An event failed twice (its resend too) is one copy.
    fake.deliveries.push({
      id: 'whevent_r',
      status: 'failed',
      resendOf: 'whevent_0000',
      createdAt: ago(0.5),
    });
    expect(await recover.execute(owner, 'we_1', { since: ago(4).toISOString() })).toEqual({ queued: count });
    expect(fake.walks.map((w) => w.limit)).toEqual([RECOVER_BATCH, RECOVER_BATCH, RECOVER_BATCH]);
    expect(fake.walks[0].before).toEqual({ createdAt: new Date(NOW), id: '' });
    // Each batch starts strictly after the last delivery of the previous one.
    expect(fake.walks[1].before).not.toEqual(fake.walks[0].before);
    expect(fake.transactions).toBe(3);
    expect(await recover.execute(owner, 'we_1', { since: ago(4).toISOString() })).toEqual({ queued: 0 });
  });

  it('takes only [since, until)', async () => {
    fake.deliveries.push(
      { id: 'whevent_old', status: 'failed', createdAt: ago(5) },
      { id: 'whevent_in', status: 'failed', createdAt: ago(3) },
      { id: 'whevent_edge', status: 'failed', createdAt: ago(2) },
    );
    const body = { since: ago(4).toISOString(), until: ago(2).toISOString() };
    expect(await recover.execute(owner, 'we_1', body)).toEqual({ queued: 1 });
    expect(fake.deliveries.filter((d) => d.resendOf).map((d) => d.resendOf)).toEqual(['whevent_in']);
  });

  it('404 for an unknown endpoint, 409 when paused; paused between batches, it stops and reports what it queued', async () => {
    fake.deliveries.push({ id: 'whevent_1', status: 'failed', createdAt: ago(1) });
    const body = { since: ago(2).toISOString() };
    await expect(recover.execute(owner, 'we_2', body)).rejects.toMatchObject({ apiError: 'not_found' });
    fake.endpoint = { id: 'we_1', enabled: false };
    await expect(recover.execute(owner, 'we_1', body)).rejects.toMatchObject({
      apiError: 'webhook_endpoint_paused',
    });
    expect(fake.deliveries).toHaveLength(1);

    fake.endpoint = { id: 'we_1', enabled: true };
    for (let i = 0; i < RECOVER_BATCH + 5; i++)
      fake.deliveries.push({ id: `whevent_b${i}`, status: 'failed', createdAt: ago(1) });
    fake.onLock = (transaction) => {
      if (transaction === fake.transactions && fake.walks.length === 1)
        fake.endpoint = { id: 'we_1', enabled: false };
    };
    expect(await recover.execute(owner, 'we_1', body)).toEqual({ queued: RECOVER_BATCH });
  });

  it('400 naming the field: since in the future or beyond the retention, until not after since', async () => {
    expect(await fields(recover.execute(owner, 'we_1', { since: new Date(NOW + 1).toISOString() }))).toEqual({
      since: ['since must not be in the future'],
    });
    expect(
      Object.keys(await fields(recover.execute(owner, 'we_1', { since: ago(90 * 24 + 1).toISOString() }))),
    ).toEqual(['since']);
    expect(
      await fields(
        recover.execute(owner, 'we_1', { since: ago(2).toISOString(), until: ago(2).toISOString() }),
      ),
    ).toEqual({ until: ['until must be later than since'] });
    // The retention is the configured one.
    const short = new RecoverDeliveries(fake.asRepository(), loadWebhookConfig({ WEBHOOK_RETENTION: '1h' }));
    expect((await fields(short.execute(owner, 'we_1', { since: ago(2).toISOString() }))).since[0]).toMatch(
      /at or after 2026-11-21T12:00:00.000Z/,
    );
    expect(fake.transactions).toBe(0);
  });
});
