import { prefixedId } from '@genasset/contracts';
import {
  openApiResponseChecker,
  waitFor,
  WebhookReceiver,
  type ServiceHarness,
  type Tenant,
} from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { RECOVER_BATCH } from '../src/deliveries/recover-deliveries.use-case';
import { logDeliveries, type LoggedDelivery } from './support/delivery-rows';
import {
  createEndpoint,
  endpointsPath,
  projectOwner,
  startWebhookHarness,
  teamOwner,
  type EndpointRecord,
  type Owner,
} from './support/webhook-harness';

jest.setTimeout(180_000);

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

// POST …/{webhookEndpointId}/recover (an extension): every failed delivery since a time, resent.
describe('recovering an endpoint', () => {
  let harness: ServiceHarness;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let owner: Owner;
  /** What /v1/openapi.json says of an answer: empty when the route, status and body are as documented. */
  let documented: ReturnType<typeof openApiResponseChecker>;

  const at = (endpoint: EndpointRecord, who: Owner = owner) => `${endpointsPath(who)}/${endpoint.id}`;
  const recover = (endpoint: EndpointRecord, body: unknown, auth = owner.auth, prefix = at(endpoint)) =>
    harness.request('POST', `${prefix}/recover`, { auth, body });
  const requestsTo = (endpoint: EndpointRecord) =>
    receiver.requests.filter((r) => endpoint.url.endsWith(r.path));
  const rows = (endpoint: EndpointRecord) =>
    harness.db.query<{ id: string; status: string; resend_of: string | null; payload: { id: string } }>(
      'SELECT id, status, resend_of, payload FROM webhooks.webhook_deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
  const counters = async (endpoint: EndpointRecord) => {
    const res = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
    const found = res.body.webhookEndpoints.find((e: EndpointRecord) => e.id === endpoint.id);
    return { nbTotalCalls: found.nbTotalCalls, nbFailedCalls: found.nbFailedCalls };
  };
  const endpointFor = (name: string, who: Owner = owner) =>
    createEndpoint(harness, who, { url: `${receiver.url}/${name}-${prefixedId('x').slice(-6)}` });

  beforeAll(async () => {
    [harness, receiver] = await Promise.all([startWebhookHarness(), WebhookReceiver.start()]);
    tenant = await harness.tenant();
    owner = projectOwner(tenant);
    documented = openApiResponseChecker((await harness.request('GET', '/v1/openapi.json')).body);
  });
  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
  });

  it('resends each event with a failed delivery in [since, until) once; a second call queues 0', async () => {
    const endpoint = await endpointFor('recover');
    const ids = (n: number) => Array.from({ length: n }, () => prefixedId('whevent'));
    const [plain, twice, redone, queued, old, edge, fine] = ids(7);
    const log: LoggedDelivery[] = [
      // In the window: three events to recover.
      { id: plain, status: 'failed', createdAt: ago(5) },
      { id: twice, status: 'failed', createdAt: ago(6) },
      { status: 'failed', createdAt: ago(4), resendOf: twice }, // its resend failed too: one new delivery
      { id: prefixedId('whevent'), status: 'failed', createdAt: ago(7), type: 'generation.failed' },
      // Already delivered, or being delivered: skipped.
      { id: redone, status: 'failed', createdAt: ago(8) },
      { status: 'success', createdAt: ago(3), resendOf: redone },
      { id: queued, status: 'failed', createdAt: ago(9) },
      { status: 'retrying', createdAt: ago(2), resendOf: queued },
      // Outside the window, or never failed: not touched.
      { id: old, status: 'failed', createdAt: ago(30) },
      { id: edge, status: 'failed', createdAt: ago(1) }, // created exactly at `until`: excluded
      { id: fine, status: 'success', createdAt: ago(5) },
      { status: 'created', createdAt: ago(5) },
    ];
    await logDeliveries(harness, endpoint.id, log);
    const until = log[9].createdAt.toISOString();
    const body = { since: ago(10).toISOString(), until };
    const before = await rows(endpoint);

    const res = await recover(endpoint, body);
    expect(res).toMatchObject({ status: 202, body: { queued: 3 } });
    expect(documented('POST', `${at(endpoint)}/recover`, 202, res.body)).toEqual([]);
    expect(Object.keys(res.body)).toEqual(['queued']);
    const added = (await rows(endpoint)).filter((r) => !before.some((b) => b.id === r.id));
    expect(added.map((r) => r.resend_of).sort()).toEqual([plain, twice, log[3].id].sort());
    // The body of each is the event's: its `id` is the first delivery's.
    for (const row of added) expect(row.payload.id).toBe(row.resend_of);

    const sent = await receiver.waitForRequests(3, 30_000).then(() =>
      waitFor(async () => (requestsTo(endpoint).length >= 3 ? requestsTo(endpoint) : undefined), {
        timeoutMs: 30_000,
        what: 'three recovered deliveries',
      }),
    );
    const delivered = sent.map(
      (r) => verifyEvent(r.rawBody, r.headers['x-service-signature'] as string, endpoint.secret).id,
    );
    expect(delivered.sort()).toEqual([plain, twice, log[3].id].sort());

    // Idempotent per event: pending or delivered now, so nothing more, at once and once delivered.
    expect((await recover(endpoint, body)).body).toEqual({ queued: 0 });
    // The logged rows' attempts were never made here: the counters count the new attempts only.
    await waitFor(async () => (await counters(endpoint)).nbTotalCalls === 3, {
      timeoutMs: 30_000,
      what: '3 recorded',
    });
    expect(await counters(endpoint)).toEqual({ nbTotalCalls: 3, nbFailedCalls: 0 });
    expect((await recover(endpoint, body)).body).toEqual({ queued: 0 });
    // Without `until`, up to now: `edge` too.
    expect((await recover(endpoint, { since: body.since })).body).toEqual({ queued: 1 });
    expect((await recover(endpoint, { since: body.since })).body).toEqual({ queued: 0 });
    await waitFor(async () => (await counters(endpoint)).nbTotalCalls === 4, {
      timeoutMs: 30_000,
      what: '4 recorded',
    });
    expect(await counters(endpoint)).toEqual({ nbTotalCalls: 4, nbFailedCalls: 0 });
    expect(requestsTo(endpoint)).toHaveLength(4);
  });

  it(`walks any number of failed deliveries in batches of ${RECOVER_BATCH}; concurrent calls queue each event once`, async () => {
    const endpoint = await endpointFor('bulk');
    const count = RECOVER_BATCH * 2 + 37;
    const base = Date.now() - HOUR;
    await logDeliveries(
      harness,
      endpoint.id,
      // About 200 in each millisecond: the walk's position breaks ties by id, across batches.
      Array.from({ length: count }, (_, i) => ({
        status: 'failed' as const,
        createdAt: new Date(base - (i % 5)),
      })),
    );
    const body = { since: ago(2).toISOString() };
    const [a, b] = await Promise.all([recover(endpoint, body), recover(endpoint, body)]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.queued + b.body.queued).toBe(count);
    const resent = (await rows(endpoint)).filter((r) => r.resend_of !== null);
    expect(resent).toHaveLength(count);
    expect(new Set(resent.map((r) => r.resend_of)).size).toBe(count);
    await waitFor(async () => requestsTo(endpoint).length === count, {
      timeoutMs: 60_000,
      what: 'every delivery',
    });
  });

  it('400 naming the field for a bad window; nothing written', async () => {
    const endpoint = await endpointFor('bad');
    await logDeliveries(harness, endpoint.id, [{ status: 'failed', createdAt: ago(1) }]);
    const cases: [unknown, string][] = [
      [{}, 'since'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: 1700000000000 }, 'since'],
      [{ since: new Date(Date.now() + 60_000).toISOString() }, 'since'],
      [{ since: ago(91 * 24).toISOString() }, 'since'],
      [{ since: ago(2).toISOString(), until: ago(3).toISOString() }, 'until'],
      [{ since: ago(2).toISOString(), until: 'later' }, 'until'],
      [{ since: ago(2).toISOString(), status: 'failed' }, 'status'],
    ];
    for (const [body, field] of cases) {
      const res = await recover(endpoint, body);
      expect({ body, status: res.status, fields: Object.keys(res.body.infos?.fields ?? {}) }).toEqual({
        body,
        status: 400,
        fields: [field],
      });
    }
    const retention = await recover(endpoint, { since: ago(91 * 24).toISOString() });
    expect(retention.body.error).toMatch(/90 days/);
    expect(documented('POST', `${at(endpoint)}/recover`, 400, retention.body)).toEqual([]);
    expect(await rows(endpoint)).toHaveLength(1);
  });

  it("409 for a paused endpoint, 404 for a deleted one or another tenant's, 403 below admin; the team route alike", async () => {
    const endpoint = await endpointFor('guarded');
    await logDeliveries(harness, endpoint.id, [{ status: 'failed', createdAt: ago(1) }]);
    const body = { since: ago(2).toISOString() };

    const stranger = await harness.tenant();
    const theirs = projectOwner(stranger);
    for (const [prefix, auth] of [
      [at(endpoint), stranger.auth.projectAdmin],
      [`${endpointsPath(theirs)}/${endpoint.id}`, theirs.auth],
      [`/v1/teams/${tenant.teamId}/webhook-endpoints/${endpoint.id}`, tenant.auth.teamAdmin],
      [`${endpointsPath(owner)}/we_01JCZ5Q3J8W6V8XQ1T9G8Q2N7R`, owner.auth],
    ]) {
      const res = await recover(endpoint, body, auth, prefix);
      expect({ prefix, status: res.status }).toEqual({ prefix, status: 404 });
    }
    expect((await recover(endpoint, body, tenant.auth.projectMember)).status).toBe(403);
    // Authorisation first: a bad body from a caller without the right is a 403, not a 400.
    expect((await recover(endpoint, {}, tenant.auth.projectMember)).status).toBe(403);

    expect(
      (await harness.request('PUT', at(endpoint), { auth: owner.auth, body: { enabled: false } })).status,
    ).toBe(200);
    const paused = await recover(endpoint, body);
    expect(paused.status).toBe(409);
    expect(documented('POST', `${at(endpoint)}/recover`, 409, paused.body)).toEqual([]);
    expect(paused.body).toMatchObject({
      apiError: 'webhook_endpoint_paused',
      infos: { webhookEndpointId: endpoint.id },
    });
    expect(await rows(endpoint)).toHaveLength(1);
    expect((await harness.request('DELETE', at(endpoint), { auth: owner.auth })).status).toBe(200);
    expect((await recover(endpoint, body)).status).toBe(404);
    expect(requestsTo(endpoint)).toEqual([]);

    const team = teamOwner(tenant);
    const teamEndpoint = await endpointFor('team', team);
    await logDeliveries(harness, teamEndpoint.id, [
      { status: 'failed', type: 'team.credit.threshold.crossed', createdAt: ago(1) },
    ]);
    const res = await recover(teamEndpoint, body, team.auth, at(teamEndpoint, team));
    expect(res).toMatchObject({ status: 202, body: { queued: 1 } });
    await waitFor(async () => requestsTo(teamEndpoint).length === 1, {
      timeoutMs: 30_000,
      what: 'the team delivery',
    });
  });
});
