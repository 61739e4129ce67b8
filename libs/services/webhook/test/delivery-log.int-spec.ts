import { JobCreated, JobFailed, prefixedId } from '@genasset/contracts';
import { waitFor, type ServiceHarness, type Tenant } from '@genasset/testing';
import { deliveryRows } from './support/delivery-rows';
import { startIntakeFixture, type IntakeFixture } from './support/intake-fixture';
import {
  createEndpoint,
  endpointsPath,
  ISO_MS_UTC,
  projectOwner,
  type EndpointRecord,
  type Owner,
} from './support/webhook-harness';

jest.setTimeout(180_000);

// GET …/{webhookEndpointId}/events[/{eventId}]: the delivery log, newest first, scoped to the owner.
describe('delivery log routes', () => {
  let fixture: IntakeFixture;
  let harness: ServiceHarness;
  let tenant: Tenant;
  let owner: Owner;
  let endpoint: EndpointRecord;
  const sourceIds: string[] = [];
  const { rowsOf, deliveriesFor } = deliveryRows(() => harness);
  const eventsPath = () => `${endpointsPath(owner)}/${endpoint.id}/events`;

  beforeAll(async () => {
    fixture = await startIntakeFixture();
    harness = fixture.harness;
    tenant = await harness.tenant();
    owner = projectOwner(tenant);
    endpoint = await createEndpoint(harness, owner, {
      url: fixture.hook('log'),
      enabledEvents: ['generation.created'],
    });
    for (let i = 0; i < 5; i++) {
      const fact = await fixture.facts.job(JobCreated, fixture.job(tenant));
      await deliveriesFor(fact.id);
      sourceIds.push(fact.id);
    }
  });
  afterAll(() => fixture?.close());

  it('lists deliveries newest first, with payload and attempts, paginated by token', async () => {
    const all = await harness.db.query<{ id: string }>(
      'SELECT id FROM webhooks.webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC, id DESC',
      [endpoint.id],
    );
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const query = `?pageSize=2${token ? `&paginationToken=${encodeURIComponent(token)}` : ''}`;
      const res = await harness.request('GET', `${eventsPath()}${query}`, { auth: owner.auth });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      for (const item of res.body.items) {
        expect(item).toEqual({
          id: expect.stringMatching(/^whevent_/),
          endpointId: endpoint.id,
          type: 'generation.created',
          status: expect.stringMatching(/^(created|retrying|success|failed)$/),
          payload: {
            id: item.id,
            type: 'generation.created',
            data: expect.objectContaining({ jobType: 'inference' }),
          },
          attempts: expect.any(Array),
          createdAt: expect.stringMatching(ISO_MS_UTC),
          sentAt: expect.stringMatching(ISO_MS_UTC),
          updatedAt: expect.stringMatching(ISO_MS_UTC),
        });
        seen.push(item.id);
      }
      token = res.body.nextPaginationToken;
      pages++;
    } while (token && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((r) => r.id));
    expect(seen).toHaveLength(5);
    // Newest first: the last fact published is the first item.
    expect(seen[0]).toBe((await rowsOf(sourceIds[4]))[0].id);

    const whole = await harness.request('GET', eventsPath(), { auth: owner.auth });
    expect(whole.body.items.map((i: { id: string }) => i.id)).toEqual(seen);
    expect(whole.body).not.toHaveProperty('nextPaginationToken');
  });

  it('400 naming the parameter for a bad token or page size', async () => {
    for (const [query, field] of [
      ['?paginationToken=garbage', 'paginationToken'],
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=101', 'pageSize'],
      ['?pageSize=abc', 'pageSize'],
    ]) {
      const res = await harness.request('GET', `${eventsPath()}${query}`, { auth: owner.auth });
      expect({ query, status: res.status, fields: Object.keys(res.body.infos?.fields ?? {}) }).toEqual({
        query,
        status: 400,
        fields: [field],
      });
    }
  });

  it('one delivery as { webhookEvent } with payload and attempts', async () => {
    const [row] = await rowsOf(sourceIds[2]);
    const res = await harness.request('GET', `${eventsPath()}/${row.id}`, { auth: owner.auth });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['webhookEvent']);
    const event = res.body.webhookEvent;
    expect(event).toMatchObject({
      id: row.id,
      endpointId: endpoint.id,
      type: 'generation.created',
      payload: row.payload,
    });
    expect(Object.keys(event)).toEqual([
      'id',
      'endpointId',
      'type',
      'status',
      'payload',
      'attempts',
      'createdAt',
      'sentAt',
      'updatedAt',
    ]);
    for (const attempt of event.attempts)
      expect(attempt).toEqual({
        responseStatusCode: expect.any(Number),
        sentAt: expect.stringMatching(ISO_MS_UTC),
      });
    expect(JSON.stringify(res.body)).not.toContain('whsec_');
  });

  it('sentAt is always there: the last attempt, or before any attempt when the event was recorded', async () => {
    const queued = await createEndpoint(harness, owner, {
      url: fixture.hook('queued'),
      enabledEvents: ['model.download.failed'],
    });
    const id = prefixedId('whevent');
    // Due in an hour: no worker attempts it while we look.
    await harness.db.query(
      `INSERT INTO webhooks.webhook_deliveries (id, endpoint_id, source_event_id, type, payload, status, next_attempt_at)
       VALUES ($1, $2, $3, 'model.download.failed', $4, 'created', now() + interval '1 hour')`,
      [id, queued.id, prefixedId('evt'), JSON.stringify({ id, type: 'model.download.failed', data: {} })],
    );
    const queuedPath = `${endpointsPath(owner)}/${queued.id}/events`;
    const waiting = (await harness.request('GET', `${queuedPath}/${id}`, { auth: owner.auth })).body
      .webhookEvent;
    expect(waiting).toMatchObject({ status: 'created', attempts: [], sentAt: waiting.createdAt });
    const list = await harness.request('GET', queuedPath, { auth: owner.auth });
    expect(list.body.items).toEqual([waiting]);

    const [row] = await rowsOf(sourceIds[3]);
    const sent = await waitFor(
      async () => {
        const res = await harness.request('GET', `${eventsPath()}/${row.id}`, { auth: owner.auth });
        return res.body.webhookEvent?.attempts.length ? res.body.webhookEvent : undefined;
      },
      { timeoutMs: 30_000, what: 'an attempt of the delivery' },
    );
    expect(sent.sentAt).toBe(sent.attempts[sent.attempts.length - 1].sentAt);
  });

  it("404 for another owner's endpoint or delivery, and for an unknown delivery", async () => {
    const [row] = await rowsOf(sourceIds[0]);
    const stranger = await harness.tenant();
    const theirs = projectOwner(stranger);
    const theirEndpoint = await createEndpoint(harness, theirs);
    const attempts: [string, string][] = [
      [`${endpointsPath(owner)}/${endpoint.id}/events`, stranger.auth.projectAdmin],
      [`${endpointsPath(owner)}/${endpoint.id}/events/${row.id}`, stranger.auth.projectAdmin],
      [`${endpointsPath(theirs)}/${endpoint.id}/events`, theirs.auth],
      [`${endpointsPath(theirs)}/${endpoint.id}/events/${row.id}`, theirs.auth],
      [`${endpointsPath(theirs)}/${theirEndpoint.id}/events/${row.id}`, theirs.auth],
      [`${eventsPath()}/whevent_01JCZ5Q3J8W6V8XQ1T9G8Q2N7R`, owner.auth],
      [`/v1/teams/${tenant.teamId}/webhook-endpoints/${endpoint.id}/events`, tenant.auth.teamAdmin],
      [`/v1/teams/${tenant.teamId}/webhook-endpoints/${endpoint.id}/events/${row.id}`, tenant.auth.teamAdmin],
    ];
    for (const [path, auth] of attempts) {
      const res = await harness.request('GET', path, { auth });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    // Same tenant, too little role: 403.
    expect((await harness.request('GET', eventsPath(), { auth: tenant.auth.projectMember })).status).toBe(
      403,
    );
  });

  it('deleting the endpoint deletes its deliveries and attempts', async () => {
    const victim = await createEndpoint(harness, owner, {
      url: fixture.hook('victim'),
      enabledEvents: ['generation.failed'],
    });
    const fact = await fixture.facts.job(JobFailed, fixture.job(tenant));
    const [row] = await deliveriesFor(fact.id);
    expect(row.endpoint_id).toBe(victim.id);
    expect(
      (await harness.request('DELETE', `${endpointsPath(owner)}/${victim.id}`, { auth: owner.auth })).status,
    ).toBe(200);
    expect(
      await harness.db.query('SELECT 1 FROM webhooks.webhook_deliveries WHERE endpoint_id = $1', [victim.id]),
    ).toEqual([]);
    expect(
      (
        await harness.request('GET', `${endpointsPath(owner)}/${victim.id}/events/${row.id}`, {
          auth: owner.auth,
        })
      ).status,
    ).toBe(404);
  });
});
