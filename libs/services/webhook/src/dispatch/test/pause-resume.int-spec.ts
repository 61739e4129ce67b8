import { JobSucceeded, prefixedId, type JobLifecycleData } from '@genasset/contracts';
import { WebhookReceiver, waitFor, type ServiceHarness, type Tenant } from '@genasset/testing';
import { FactPublisher } from '../../../test/support/fact-publisher';
import {
  createEndpoint,
  endpointsPath,
  projectOwner,
  startWebhookHarness,
  type Owner,
} from '../../../test/support/webhook-harness';

jest.setTimeout(180_000);

/**
 * Pause and resume as a client does it, through the whole app: facts on
 * Kafka → intake → delivery workers → a real receiver.
 */
describe('pausing an endpoint (end to end)', () => {
  let harness: ServiceHarness;
  let facts: FactPublisher;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let owner: Owner;

  beforeAll(async () => {
    [harness, facts, receiver] = await Promise.all([
      startWebhookHarness(),
      FactPublisher.connect(),
      WebhookReceiver.start(),
    ]);
    tenant = await harness.tenant();
    owner = projectOwner(tenant);
  });
  afterAll(async () => {
    await facts?.close();
    await receiver?.close();
    await harness?.close();
  });

  const generationCompleted = (): Promise<unknown> => {
    const data: JobLifecycleData = {
      jobId: prefixedId('job'),
      jobType: 'inference',
      kind: 'generation',
      status: 'success',
      teamId: tenant.teamId,
      projectId: tenant.projectId,
    };
    return facts.job(JobSucceeded, data).then(() => data.jobId);
  };
  const jobsAt = (path: string) =>
    receiver.requests
      .filter((r) => r.path === path)
      .map((r) => (JSON.parse(r.rawBody.toString()) as { data: { jobId: string } }).data.jobId);

  it('sends nothing while paused, not even after resuming; events after resuming are delivered', async () => {
    const paused = await createEndpoint(harness, owner, {
      url: `${receiver.url}/paused`,
      enabledEvents: ['generation.completed'],
    });
    // A second endpoint of the same project shows when the intake has handled each fact.
    await createEndpoint(harness, owner, {
      url: `${receiver.url}/marker`,
      enabledEvents: ['generation.completed'],
    });

    const before = await generationCompleted();
    await waitFor(() => jobsAt('/hooks/paused').includes(before as string), {
      timeoutMs: 30_000,
      what: 'delivery before the pause',
    });

    const pause = await harness.request('PUT', `${endpointsPath(owner)}/${paused.id}`, {
      auth: owner.auth,
      body: { enabled: false },
    });
    expect(pause.status).toBe(200);
    const during = [await generationCompleted(), await generationCompleted()];
    await waitFor(() => during.every((jobId) => jobsAt('/hooks/marker').includes(jobId as string)), {
      timeoutMs: 30_000,
      what: 'marker deliveries',
    });
    // The intake writes every endpoint's record of a fact in one statement: with the marker's records
    // written, the paused endpoint's would be too. Its log holds none for these facts, and a delivery
    // is only ever sent from its record, so nothing can be sent for them later.
    const log = await harness.request('GET', `${endpointsPath(owner)}/${paused.id}/events`, { auth: owner.auth });
    expect(log.status).toBe(200);
    expect(log.body.items.map((d: { payload: { data: { jobId: string } } }) => d.payload.data.jobId)).toEqual([before]);
    expect(jobsAt('/hooks/paused')).toEqual([before]);

    const resume = await harness.request('PUT', `${endpointsPath(owner)}/${paused.id}`, {
      auth: owner.auth,
      body: { enabled: true },
    });
    expect(resume.status).toBe(200);
    const after = await generationCompleted();
    await waitFor(() => jobsAt('/hooks/paused').includes(after as string), {
      timeoutMs: 30_000,
      what: 'delivery after resuming',
    });
    await waitFor(() => jobsAt('/hooks/marker').includes(after as string), {
      timeoutMs: 30_000,
      what: 'marker delivery after resuming',
    });
    expect(jobsAt('/hooks/paused')).toEqual([before, after]);

    const list = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
    const record = list.body.webhookEndpoints.find((e: { id: string }) => e.id === paused.id);
    await waitFor(
      async () => {
        const now = await harness.request('GET', endpointsPath(owner), { auth: owner.auth });
        return now.body.webhookEndpoints.find((e: { id: string }) => e.id === paused.id).nbTotalCalls === 2;
      },
      { what: 'two attempts counted' },
    );
    expect(record).toMatchObject({ enabled: true, nbFailedCalls: 0 });
  });
});
