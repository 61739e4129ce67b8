import { JobSucceeded, prefixedId } from '@genasset/contracts';
import { waitFor, type ServiceHarness, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { startIntakeFixture, type IntakeFixture } from './support/intake-fixture';
import { createEndpoint, endpointsPath, projectOwner, teamOwner } from './support/webhook-harness';

jest.setTimeout(180_000);

// The whole path a client sees: register → a fact occurs → a signed POST arrives, verifiable with
// the secret shown once at creation (sealed at rest by SecretBox, opened by the workers).
describe('webhook-dispatcher end to end', () => {
  let fixture: IntakeFixture;
  let harness: ServiceHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    fixture = await startIntakeFixture();
    harness = fixture.harness;
    tenant = await harness.tenant();
  });
  afterAll(() => fixture?.close());

  it('delivers a signed event the receiver verifies with the creation secret; the log shows it', async () => {
    const owner = projectOwner(tenant);
    const endpoint = await createEndpoint(harness, owner, {
      url: `${fixture.receiver.url}/e2e`,
      enabledEvents: ['generation.completed'],
    });
    const fact = await fixture.facts.job(JobSucceeded, {
      jobId: prefixedId('job'),
      jobType: 'inference',
      kind: 'generation',
      status: 'success',
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      modelId: 'model_e2e',
    });

    const [request] = await fixture.receiver.waitForRequests(1, 30_000);
    expect(request.method).toBe('POST');
    const event = verifyEvent(
      request.rawBody,
      request.headers['x-service-signature'] as string,
      endpoint.secret,
    );
    expect(event).toEqual({
      id: expect.stringMatching(/^whevent_/),
      type: 'generation.completed',
      data: { jobId: fact.data.jobId, jobType: 'inference', modelId: 'model_e2e' },
    });

    const detail = await waitFor(
      async () => {
        const res = await harness.request(
          'GET',
          `${endpointsPath(owner)}/${endpoint.id}/events/${event.id}`,
          { auth: owner.auth },
        );
        return res.body?.webhookEvent?.status === 'success' ? res.body.webhookEvent : undefined;
      },
      { timeoutMs: 15_000, what: 'delivery recorded as success' },
    );
    expect(JSON.stringify(detail.payload)).toBe(request.rawBody.toString('utf8'));
    expect(detail.attempts).toEqual([{ responseStatusCode: 200, sentAt: expect.any(String) }]);
    const list = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
    expect(list.body.webhookEndpoints[0]).toMatchObject({
      id: endpoint.id,
      nbTotalCalls: 1,
      nbFailedCalls: 0,
    });
  });

  it('the log shows the bytes the receiver got: its payload, serialised, is the raw body', async () => {
    // The team event: nested data keys in no sorted order, and `version` after the spec's fields.
    const owner = teamOwner(tenant);
    const url = fixture.hook('bytes');
    const endpoint = await createEndpoint(harness, owner, {
      url,
      enabledEvents: ['team.credit.threshold.crossed'],
    });
    await fixture.facts.creditAlert({
      teamId: tenant.teamId,
      thresholdUnit: 'percent',
      thresholdValue: 20,
      remainingCreativeUnits: 150,
      totalPeriodCreativeUnits: 1000,
      periodStart: '2026-11-01T00:00:00.000Z',
    });
    const request = await waitFor(
      () => fixture.receiver.requests.find((r) => r.path === new URL(url).pathname),
      { timeoutMs: 30_000, what: 'the team event at the receiver' },
    );
    const rawBody = request.rawBody.toString('utf8');
    const eventsPath = `${endpointsPath(owner)}/${endpoint.id}/events`;
    const detail = await harness.request('GET', `${eventsPath}/${JSON.parse(rawBody).id}`, {
      auth: owner.auth,
    });
    expect(JSON.stringify(detail.body.webhookEvent.payload)).toBe(rawBody);
    const list = await harness.request('GET', eventsPath, { auth: owner.auth });
    expect(JSON.stringify(list.body.items[0].payload)).toBe(rawBody);
  });
});
