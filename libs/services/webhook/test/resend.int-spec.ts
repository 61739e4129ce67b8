import { JobSucceeded, prefixedId } from '@genasset/contracts';
import {
  openApiResponseChecker,
  waitFor,
  type ReceivedRequest,
  type ServiceHarness,
  type Tenant,
} from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { logDeliveries } from './support/delivery-rows';
import { startIntakeFixture, type IntakeFixture } from './support/intake-fixture';
import {
  createEndpoint,
  endpointsPath,
  projectOwner,
  teamOwner,
  type EndpointRecord,
  type Owner,
} from './support/webhook-harness';

jest.setTimeout(180_000);

type Record = { [key: string]: unknown; id: string; status: string; attempts: unknown[] };

// POST …/{webhookEndpointId}/events/{eventId}/resend (an extension): a new delivery of the same event.
describe('resending a delivery', () => {
  let fixture: IntakeFixture;
  let harness: ServiceHarness;
  let tenant: Tenant;
  let owner: Owner;
  /** What /v1/openapi.json says of an answer: empty when the route, status and body are as documented. */
  let documented: ReturnType<typeof openApiResponseChecker>;
  /** Per receiver path: the status to answer, or a promise to wait on first (a delivery held in flight). */
  const answers = new Map<string, number | Promise<number>>();

  const at = (endpoint: EndpointRecord) => `${endpointsPath(owner)}/${endpoint.id}`;
  const resend = (endpoint: EndpointRecord, id: string, auth = owner.auth, prefix = at(endpoint)) =>
    harness.request('POST', `${prefix}/events/${id}/resend`, { auth });
  const delivery = async (endpoint: EndpointRecord, id: string): Promise<Record> =>
    (await harness.request('GET', `${at(endpoint)}/events/${id}`, { auth: owner.auth })).body.webhookEvent;
  const requestsTo = (endpoint: EndpointRecord): ReceivedRequest[] =>
    fixture.receiver.requests.filter((r) => endpoint.url.endsWith(r.path));
  const rowCount = async (endpoint: EndpointRecord) =>
    (
      await harness.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhooks.webhook_deliveries WHERE endpoint_id = $1',
        [endpoint.id],
      )
    )[0].n;
  const counters = async (endpoint: EndpointRecord) => {
    const res = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
    const found = res.body.webhookEndpoints.find((e: EndpointRecord) => e.id === endpoint.id);
    return { nbTotalCalls: found.nbTotalCalls, nbFailedCalls: found.nbFailedCalls };
  };
  /** A generation.completed fact of the tenant: every subscribed endpoint gets a delivery. */
  const occur = () => fixture.facts.job(JobSucceeded, fixture.job(tenant, { status: 'success' }));
  const endpointFor = (name: string) =>
    createEndpoint(harness, owner, { url: fixture.hook(name), enabledEvents: ['generation.completed'] });
  const pause = async (endpoint: EndpointRecord, enabled = false) =>
    expect((await harness.request('PUT', at(endpoint), { auth: owner.auth, body: { enabled } })).status).toBe(
      200,
    );

  beforeAll(async () => {
    fixture = await startIntakeFixture({
      WEBHOOK_RETRY_DELAYS: '200ms,200ms',
      WEBHOOK_TIMEOUT: '5s',
      // One attempt in flight per endpoint: a held attempt keeps the next delivery waiting in the queue.
      WEBHOOK_ENDPOINT_CONCURRENCY: '1',
      // The endpoint is read before every start, however recently it was read.
      WEBHOOK_RECHECK_AFTER: '0ms',
      // Deliveries written straight to the log (logDeliveries) raise no NOTIFY: the workers find them
      // by polling. The default 10 s left each held attempt 6–10 s to start.
      WEBHOOK_POLL_INTERVAL: '500ms',
    });
    harness = fixture.harness;
    fixture.receiver.respondWith(async (request) => (await answers.get(request.path)) ?? 200);
    tenant = await harness.tenant();
    owner = projectOwner(tenant);
    documented = openApiResponseChecker((await harness.request('GET', '/v1/openapi.json')).body);
  });
  afterAll(() => fixture?.close());

  it('delivers the same body again with a fresh valid signature; the original keeps its status; counters count the new attempts', async () => {
    const endpoint = await endpointFor('resend');
    const path = new URL(endpoint.url).pathname;
    answers.set(path, 503);
    await occur();
    const [first] = await fixture.receiver.waitForRequests(1, 30_000).then(() =>
      waitFor(async () => (requestsTo(endpoint).length >= 3 ? requestsTo(endpoint) : undefined), {
        timeoutMs: 30_000,
        what: 'three failed attempts',
      }),
    );
    const originalId = verifyEvent(
      first.rawBody,
      first.headers['x-service-signature'] as string,
      endpoint.secret,
    ).id;
    const original = await waitFor(
      async () => {
        const record = await delivery(endpoint, originalId);
        return record.status === 'failed' ? record : undefined;
      },
      { timeoutMs: 30_000, what: 'the delivery to fail' },
    );
    expect(await counters(endpoint)).toEqual({ nbTotalCalls: 3, nbFailedCalls: 3 });

    answers.set(path, 200);
    const res = await resend(endpoint, originalId);
    expect(res.status).toBe(202);
    expect(documented('POST', `${at(endpoint)}/events/${originalId}/resend`, 202, res.body)).toEqual([]);
    expect(Object.keys(res.body)).toEqual(['webhookEvent']);
    const queued = res.body.webhookEvent;
    expect(queued).toEqual({
      id: expect.stringMatching(/^whevent_/),
      endpointId: endpoint.id,
      type: 'generation.completed',
      status: 'created',
      payload: original.payload,
      attempts: [],
      createdAt: expect.any(String),
      sentAt: queued.createdAt,
      updatedAt: expect.any(String),
      resendOf: originalId,
    });
    expect(queued.id).not.toBe(originalId);

    const [again] = await waitFor(
      async () => (requestsTo(endpoint).length >= 4 ? requestsTo(endpoint).slice(3) : undefined),
      { timeoutMs: 30_000, what: 'the resent delivery' },
    );
    // The same bytes, so the body's id is the event's: a receiver deduplicating on it sees a redelivery.
    expect(again.rawBody.equals(first.rawBody)).toBe(true);
    const header = again.headers['x-service-signature'] as string;
    expect(verifyEvent(again.rawBody, header, endpoint.secret).id).toBe(originalId);
    expect(header.split('.')[0]).not.toBe((first.headers['x-service-signature'] as string).split('.')[0]);

    const done = await waitFor(
      async () => {
        const record = await delivery(endpoint, queued.id);
        return record.status === 'success' ? record : undefined;
      },
      { timeoutMs: 30_000, what: 'the resend to succeed' },
    );
    expect(done.attempts).toEqual([{ responseStatusCode: 200, sentAt: expect.any(String) }]);
    expect(await delivery(endpoint, originalId)).toEqual(original);
    expect(await counters(endpoint)).toEqual({ nbTotalCalls: 4, nbFailedCalls: 3 });

    // The log lists both, the resend first (newest); GET of each id is unambiguous.
    const log = await harness.request('GET', `${at(endpoint)}/events`, { auth: owner.auth });
    expect(log.body.items.map((i: Record) => i.id)).toEqual([queued.id, originalId]);
    // A final delivery may be resent again (the successful resend too): each time a new record.
    const twice = await resend(endpoint, queued.id);
    expect(twice.status).toBe(202);
    expect(twice.body.webhookEvent.resendOf).toBe(originalId);
    await waitFor(async () => requestsTo(endpoint).length >= 5, {
      timeoutMs: 30_000,
      what: 'the 2nd resend',
    });
    expect(requestsTo(endpoint)[4].rawBody.equals(first.rawBody)).toBe(true);
  });

  it('409 while a delivery of the event is pending (itself or an earlier resend), naming it; nothing written', async () => {
    const endpoint = await endpointFor('pending');
    const now = Date.now();
    const failed = prefixedId('whevent');
    const [retrying, , pendingResend] = await logDeliveries(harness, endpoint.id, [
      { status: 'retrying', createdAt: new Date(now - 60_000) },
      { id: failed, status: 'failed', createdAt: new Date(now - 50_000) },
      // A queued resend of the failed one.
      { status: 'created', createdAt: new Date(now - 40_000), resendOf: failed },
    ]);
    const before = await rowCount(endpoint);
    for (const [id, pending] of [
      [retrying, retrying],
      [failed, pendingResend],
    ]) {
      const res = await resend(endpoint, id);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        apiError: 'webhook_event_pending',
        infos: { pendingWebhookEventId: pending },
      });
      expect(res.body.error).toContain(pending);
      expect(documented('POST', `${at(endpoint)}/events/${id}/resend`, 409, res.body)).toEqual([]);
    }
    expect(await rowCount(endpoint)).toBe(before);
  });

  it('409 for a paused endpoint (nothing written, nothing sent); 404 for a deleted one', async () => {
    const endpoint = await endpointFor('paused');
    const [failed] = await logDeliveries(harness, endpoint.id, [{ status: 'failed', createdAt: new Date() }]);
    await pause(endpoint);
    const res = await resend(endpoint, failed);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      apiError: 'webhook_endpoint_paused',
      infos: { webhookEndpointId: endpoint.id },
    });
    expect(res.body.error).toMatch(/paused/);
    expect(await rowCount(endpoint)).toBe(1);

    expect((await harness.request('DELETE', at(endpoint), { auth: owner.auth })).status).toBe(200);
    const gone = await resend(endpoint, failed);
    expect(gone.status).toBe(404);
    expect(requestsTo(endpoint)).toEqual([]);
  });

  it("404 for an unknown delivery, another endpoint's or another tenant's; 403 below admin; the team route alike", async () => {
    const endpoint = await endpointFor('scoped');
    const other = await endpointFor('scoped-other');
    const [failed] = await logDeliveries(harness, endpoint.id, [{ status: 'failed', createdAt: new Date() }]);
    const stranger = await harness.tenant();
    const theirs = projectOwner(stranger);
    const theirEndpoint = await createEndpoint(harness, theirs);
    const cases: [string, string][] = [
      [`${at(endpoint)}/events/whevent_01JCZ5Q3J8W6V8XQ1T9G8Q2N7R/resend`, owner.auth],
      [`${at(other)}/events/${failed}/resend`, owner.auth],
      [`${at(endpoint)}/events/${failed}/resend`, stranger.auth.projectAdmin],
      [`${endpointsPath(theirs)}/${endpoint.id}/events/${failed}/resend`, theirs.auth],
      [`${endpointsPath(theirs)}/${theirEndpoint.id}/events/${failed}/resend`, theirs.auth],
      [
        `/v1/teams/${tenant.teamId}/webhook-endpoints/${endpoint.id}/events/${failed}/resend`,
        tenant.auth.teamAdmin,
      ],
    ];
    for (const [path, auth] of cases) {
      const res = await harness.request('POST', path, { auth });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    expect((await resend(endpoint, failed, tenant.auth.projectMember)).status).toBe(403);
    expect((await resend(endpoint, failed, '')).status).toBe(401);
    expect(await rowCount(endpoint)).toBe(1);

    const team = teamOwner(tenant);
    const teamEndpoint = await createEndpoint(harness, team, { url: fixture.hook('team') });
    const [teamFailed] = await logDeliveries(harness, teamEndpoint.id, [
      { status: 'failed', type: 'team.credit.threshold.crossed', createdAt: new Date() },
    ]);
    const teamRes = await resend(
      teamEndpoint,
      teamFailed,
      team.auth,
      `${endpointsPath(team)}/${teamEndpoint.id}`,
    );
    expect(teamRes.status).toBe(202);
    expect(teamRes.body.webhookEvent).toMatchObject({
      resendOf: teamFailed,
      type: 'team.credit.threshold.crossed',
    });
    await waitFor(async () => requestsTo(teamEndpoint).length === 1, {
      timeoutMs: 30_000,
      what: 'the team resend',
    });
  });

  it('a resend queued, then its endpoint paused or deleted before it is attempted, is not sent', async () => {
    for (const change of ['pause', 'delete'] as const) {
      const endpoint = await endpointFor(`held-${change}`);
      const path = new URL(endpoint.url).pathname;
      // A delivery held in flight at the receiver takes the endpoint's one slot for claims.
      let release!: (status: number) => void;
      answers.set(path, new Promise<number>((resolve) => (release = resolve)));
      const [failed] = await logDeliveries(harness, endpoint.id, [
        { status: 'failed', createdAt: new Date() },
        { status: 'created', createdAt: new Date(), dueAt: new Date() },
      ]);
      await waitFor(async () => requestsTo(endpoint).length === 1, {
        timeoutMs: 30_000,
        what: 'the held attempt',
      });

      const res = await resend(endpoint, failed);
      expect(res.status).toBe(202);
      const queued: Record = res.body.webhookEvent;
      if (change === 'pause') await pause(endpoint);
      else expect((await harness.request('DELETE', at(endpoint), { auth: owner.auth })).status).toBe(200);
      // Released at once: the worker checks a delivery that waited for the slot against the endpoint
      // as stored before starting it (WEBHOOK_RECHECK_AFTER 0), so the pause or delete holds it back
      // even before the recall notice reaches the worker (DeliveryWorker.checkWaited).
      answers.set(path, 200);
      release(200);
      // Well past the workers' poll interval (500 ms) and the freed slot's claim.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect({ change, sent: requestsTo(endpoint).length }).toEqual({ change, sent: 1 });
      expect(JSON.parse(requestsTo(endpoint)[0].rawBody.toString()).id).not.toBe(failed);
      if (change === 'delete') {
        expect(await rowCount(endpoint)).toBe(0);
        continue;
      }
      expect(await delivery(endpoint, queued.id)).toMatchObject({ status: 'created', attempts: [] });
      // Resumed, it goes out as any delivery pending at the pause does (docs/webhooks.md).
      await pause(endpoint, true);
      await waitFor(async () => requestsTo(endpoint).length === 2, {
        timeoutMs: 30_000,
        what: 'after the resume',
      });
    }
  });
});
