import { JobSucceeded, prefixedId } from '@genasset/contracts';
import { waitFor, type ServiceHarness, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { startIntakeFixture, type IntakeFixture } from './support/intake-fixture';
import { createEndpoint, endpointsPath, projectOwner } from './support/webhook-harness';

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
    expect(detail.payload).toEqual(JSON.parse(request.rawBody.toString('utf8')));
    expect(detail.attempts).toEqual([{ responseStatusCode: 200, sentAt: expect.any(String) }]);
    const list = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
    expect(list.body.webhookEndpoints[0]).toMatchObject({
      id: endpoint.id,
      nbTotalCalls: 1,
      nbFailedCalls: 0,
    });
  });
});
