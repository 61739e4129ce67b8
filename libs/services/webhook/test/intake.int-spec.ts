import {
  JobCanceled,
  JobCreated,
  JobFailed,
  JobStarted,
  JobSucceeded,
  type JobLifecycleData,
} from '@genasset/contracts';
import { waitFor, type ServiceHarness, type Tenant } from '@genasset/testing';
import { DELIVERIES_CHANNEL } from '../src';
import { deliveryRows, type DeliveryRow } from './support/delivery-rows';
import type { FactPublisher } from './support/fact-publisher';
import { startIntakeFixture, type IntakeFixture } from './support/intake-fixture';
import {
  createEndpoint,
  endpointsPath,
  projectOwner,
  teamOwner,
  type Owner,
} from './support/webhook-harness';

jest.setTimeout(180_000);

// Facts arrive over the real broker exactly as job-service will publish them.
describe('intake: facts become delivery records', () => {
  let fixture: IntakeFixture;
  let harness: ServiceHarness;
  let facts: FactPublisher;
  let tenant: Tenant;
  let project: Owner;
  let team: Owner;

  beforeAll(async () => {
    fixture = await startIntakeFixture();
    ({ harness, facts } = fixture);
    tenant = await harness.tenant();
    project = projectOwner(tenant);
    team = teamOwner(tenant);
  });
  afterAll(() => fixture?.close());

  const hook = (name: string) => fixture.hook(name);
  const job = (extra: Partial<JobLifecycleData> = {}) => fixture.job(tenant, extra);
  const { rowsOf, deliveriesFor } = deliveryRows(() => harness);
  /** A fact on the same key after `jobId`'s earlier facts: once it is recorded, everything before it was handled. */
  const settle = async (jobId: string, endpointCount: number) => {
    const marker = await facts.job(JobSucceeded, job({ jobId }));
    await deliveriesFor(marker.id, endpointCount);
  };
  const handedOver = () => takenBy(harness, 'handoff');
  const expectQueued = (row: DeliveryRow) => {
    // Written before any attempt as `created`, due at once; the delivery workers may already have moved it on.
    if (row.attempt_count === 0) expect(row.status).toBe('created');
    else expect(['retrying', 'success', 'failed']).toContain(row.status);
  };

  it('one created delivery per subscribed enabled endpoint, with the exact body; nothing for others', async () => {
    const everything = await createEndpoint(harness, project, { url: hook('all'), enabledEvents: ['*'] });
    const completedOnly = await createEndpoint(harness, project, {
      url: hook('completed'),
      enabledEvents: ['generation.completed'],
    });
    const createdOnly = await createEndpoint(harness, project, {
      url: hook('created'),
      enabledEvents: ['generation.created', 'asset.download.created'],
    });
    const teamEndpoint = await createEndpoint(harness, team, { url: hook('team'), enabledEvents: ['*'] });
    const wakeups: string[] = [];
    const unlisten = await harness.db.listen(DELIVERIES_CHANNEL, (payload) => wakeups.push(payload));
    const handedBefore = await handedOver();

    const fact = await facts.job(
      JobSucceeded,
      job({ jobType: 'inference', modelId: 'model_123', output: { assetIds: ['asset_1'] } }),
    );
    const rows = await deliveriesFor(fact.id, 2);
    await unlisten();
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([everything.id, completedOnly.id].sort());
    for (const row of rows) {
      expect(row.id).toMatch(/^whevent_[0-9A-Z]{26}$/);
      expect(row.type).toBe('generation.completed');
      expectQueued(row);
      expect(row.payload).toEqual({
        id: row.id,
        type: 'generation.completed',
        data: { jobId: fact.data.jobId, jobType: 'inference', modelId: 'model_123' },
      });
    }
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
    // This process's worker had room: it took both as the intake wrote them (leased to it), so no
    // worker needed waking; a delivery it has no room for is queued with a NOTIFY instead.
    expect((await handedOver()) - handedBefore).toBe(2);
    expect(wakeups).toEqual([]);
    for (const id of [createdOnly.id, teamEndpoint.id]) {
      expect(
        await harness.db.query('SELECT 1 FROM webhooks.webhook_deliveries WHERE endpoint_id = $1', [id]),
      ).toEqual([]);
    }
  });

  it('a redelivered fact adds no second record', async () => {
    const endpoint = await createEndpoint(harness, project, {
      url: hook('redelivery'),
      enabledEvents: ['generation.created'],
    });
    const fact = await facts.job(JobCreated, job());
    // One statement writes every delivery of a fact: once one is there, all are.
    const before = await deliveriesFor(fact.id, 1);
    expect(before.filter((r) => r.endpoint_id === endpoint.id)).toHaveLength(1);
    await facts.send(JobCreated, fact);
    await facts.send(JobCreated, fact);
    await settle(fact.data.jobId, 1);
    expect((await rowsOf(fact.id)).map((r) => r.id)).toEqual(before.map((r) => r.id));
  });

  it("paused endpoints get no record, and do not get the pause's events after resuming; cancelled generations send nothing", async () => {
    const fresh = await harness.tenant();
    const owner = projectOwner(fresh);
    const paused = await createEndpoint(harness, owner, { url: hook('paused'), enabledEvents: ['*'] });
    const live = await createEndpoint(harness, owner, {
      url: hook('live'),
      enabledEvents: ['generation.created', 'generation.completed'],
    });
    await harness.request('PUT', `${endpointsPath(owner)}/${paused.id}`, {
      auth: owner.auth,
      body: { enabled: false },
    });
    const mine = (extra: Partial<JobLifecycleData> = {}) =>
      job({ teamId: fresh.teamId, projectId: fresh.projectId, ...extra });

    const created = await facts.job(JobCreated, mine());
    const canceled = await facts.job(JobCanceled, mine({ jobId: created.data.jobId }));
    const started = await facts.job(JobStarted, mine({ jobId: created.data.jobId }));
    const marker = await facts.job(JobSucceeded, mine({ jobId: created.data.jobId }));
    await deliveriesFor(marker.id, 1);
    expect((await rowsOf(created.id)).map((r) => r.endpoint_id)).toEqual([live.id]);
    expect(await rowsOf(canceled.id)).toEqual([]);
    expect(await rowsOf(started.id)).toEqual([]);
    expect((await rowsOf(marker.id)).map((r) => r.endpoint_id)).toEqual([live.id]);

    await harness.request('PUT', `${endpointsPath(owner)}/${paused.id}`, {
      auth: owner.auth,
      body: { enabled: true },
    });
    const after = await facts.job(JobCreated, mine());
    expect((await deliveriesFor(after.id, 2)).map((r) => r.endpoint_id).sort()).toEqual(
      [paused.id, live.id].sort(),
    );
    expect(
      await harness.db.query(
        'SELECT source_event_id FROM webhooks.webhook_deliveries WHERE endpoint_id = $1',
        [paused.id],
      ),
    ).toEqual([{ source_event_id: after.id }]);
  });

  it('* receives every project event type, including ones it never named', async () => {
    const fresh = await harness.tenant();
    await createEndpoint(harness, projectOwner(fresh), { url: hook('star'), enabledEvents: ['*'] });
    const base = { teamId: fresh.teamId, projectId: fresh.projectId };
    const sent = [
      await facts.job(JobCreated, job({ ...base, kind: 'model-download', jobType: 'model-download' })),
      await facts.job(
        JobStarted,
        job({ ...base, kind: 'model-training', jobType: 'model-training', modelId: 'model_1' }),
      ),
      await facts.job(JobFailed, job({ ...base, kind: 'asset-download', jobType: 'assets-download' })),
    ];
    for (const fact of sent) expect(await deliveriesFor(fact.id, 1)).toHaveLength(1);
  });

  it("team alerts go to the team's endpoints only, with version 1", async () => {
    const fresh = await harness.tenant();
    const teamA = await createEndpoint(harness, teamOwner(fresh), {
      url: hook('team-a'),
      enabledEvents: ['team.credit.threshold.crossed'],
    });
    const teamB = await createEndpoint(harness, teamOwner(fresh), {
      url: hook('team-b'),
      enabledEvents: ['*'],
    });
    const projectStar = await createEndpoint(harness, projectOwner(fresh), {
      url: hook('proj-star'),
      enabledEvents: ['*'],
    });
    const otherTeam = await createEndpoint(harness, team, { url: hook('other-team'), enabledEvents: ['*'] });
    const alert = await facts.creditAlert({
      teamId: fresh.teamId,
      thresholdUnit: 'percent',
      thresholdValue: 20,
      remainingCreativeUnits: 150,
      totalPeriodCreativeUnits: 1000,
      periodStart: '2026-11-01T00:00:00.000Z',
    });
    const rows = await deliveriesFor(alert.id, 2);
    await facts
      .creditAlert({ ...alert.data, thresholdValue: 10 })
      .then((marker) => deliveriesFor(marker.id, 2));
    expect((await rowsOf(alert.id)).map((r) => r.endpoint_id).sort()).toEqual([teamA.id, teamB.id].sort());
    for (const row of rows) {
      expectQueued(row);
      expect(row.payload).toEqual({
        id: row.id,
        type: 'team.credit.threshold.crossed',
        data: {
          teamId: fresh.teamId,
          thresholdUnit: 'percent',
          thresholdValue: 20,
          remainingCreativeUnits: 150,
          totalPeriodCreativeUnits: 1000,
        },
        version: 1,
      });
    }
    for (const id of [projectStar.id, otherTeam.id]) {
      expect(
        await harness.db.query(
          'SELECT 1 FROM webhooks.webhook_deliveries WHERE endpoint_id = $1 AND source_event_id = $2',
          [id, alert.id],
        ),
      ).toEqual([]);
    }
  });
});

// The worker takes new deliveries from the intake up to its hand-off depth (32 windows of attempts in
// flight, per endpoint and in all); the rest wait in the shared queue, with a NOTIFY.
describe('intake: hand-off to the local worker, within its room', () => {
  let fixture: IntakeFixture;
  beforeAll(async () => {
    // Room for 32: one attempt in flight, 31 waiting.
    fixture = await startIntakeFixture({ WEBHOOK_MAX_IN_FLIGHT: '1', WEBHOOK_ENDPOINT_CONCURRENCY: '1' });
  });
  afterAll(() => fixture?.close());

  it('hands over what fits, queues the rest with a NOTIFY, and delivers every one', async () => {
    const { harness, facts, receiver } = fixture;
    const tenant = await harness.tenant();
    const endpoints = [];
    const names = Array.from({ length: 34 }, (_, i) => `e${i}`);
    for (const name of names)
      endpoints.push(
        await createEndpoint(harness, projectOwner(tenant), {
          url: fixture.hook(name),
          enabledEvents: ['generation.completed'],
        }),
      );
    const wakeups: string[] = [];
    const unlisten = await harness.db.listen(DELIVERIES_CHANNEL, (payload) => wakeups.push(payload));
    const [handoffs, claims] = [await takenBy(harness, 'handoff'), await takenBy(harness, 'claim')];

    const fact = await facts.job(JobSucceeded, fixture.job(tenant));
    const delivered = await receiver.waitForRequests(34, 30_000);
    await unlisten();
    expect(delivered.map((r) => r.path.split('-')[0]).sort()).toEqual(names.map((n) => `/hooks/${n}`).sort());
    expect((await takenBy(harness, 'handoff')) - handoffs).toBe(32);
    expect((await takenBy(harness, 'claim')) - claims).toBe(2);
    expect(wakeups).toEqual(['2']);
    const rows = await harness.db.query<{ status: string; attempt_count: number }>(
      'SELECT status, attempt_count FROM webhooks.webhook_deliveries WHERE source_event_id = $1',
      [fact.id],
    );
    await waitFor(async () => {
      const now = await harness.db.query<{ status: string }>(
        'SELECT status FROM webhooks.webhook_deliveries WHERE source_event_id = $1',
        [fact.id],
      );
      return now.every((r) => r.status === 'success') || undefined;
    });
    expect(rows).toHaveLength(34);
  });
});

/** Deliveries the process's worker took on, by source (its /metrics). */
async function takenBy(harness: ServiceHarness, source: 'handoff' | 'claim'): Promise<number> {
  const text = await (await fetch(`${harness.url}/metrics`)).text();
  const found = new RegExp(`^webhook_dispatch_taken_total\\{source="${source}"\\} (\\d+)$`, 'm').exec(text);
  return Number(found?.[1] ?? 0);
}
