import { InternalApiError, TOPICS } from '@genasset/contracts';
import { HttpJobsApi, InternalHttpClient } from '@genasset/internal-api';
import { TopicReader, waitFor, type Tenant } from '@genasset/testing';
import { CreditsClient, period } from './support/credits';
import { FakeExecutor } from './support/executor';
import { handled, startJobHarness, type JobHarness } from './support/job-harness';

jest.setTimeout(120_000);

// The creative-unit ledger with the real job-service: plans set by the operator, charges inside
// job creation, refunds on cancel and on failure reports from the broker, team usage.
describe('job-service creative units', () => {
  let harness: JobHarness;
  let credits: CreditsClient;
  let executor: FakeExecutor;
  let lifecycle: TopicReader;

  beforeAll(async () => {
    lifecycle = await new TopicReader(TOPICS.jobLifecycle).start();
    harness = await startJobHarness();
    credits = new CreditsClient(harness);
    executor = await new FakeExecutor().start();
  });
  afterAll(async () => {
    await executor?.stop();
    await harness?.close();
    await lifecycle?.stop();
  });

  async function report(send: Promise<{ id: string }>): Promise<void> {
    const { id } = await send;
    await waitFor(() => handled(harness, id), { timeoutMs: 20_000, what: `report ${id} handled` });
  }

  describe('PUT /admin/v1/teams/{teamId}/credit-plan', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await harness.tenant();
    });

    it('needs the admin token', async () => {
      expect((await credits.setPlan(tenant.teamId, period(100), '')).status).toBe(401);
      const wrong = await credits.setPlan(tenant.teamId, period(100), 'Bearer adm_not-the-token-at-all');
      expect(wrong.status).toBe(401);
      expect((await credits.setPlan(tenant.teamId, period(100), tenant.auth.teamAdmin)).status).toBe(401);
      expect((await credits.usage(tenant)).metered).toBe(false);
    });

    it('refuses bad plans with 400 naming the field, and unknown team ids with 404', async () => {
      const bad = await credits.setPlan(tenant.teamId, {
        ...period(100),
        totalPeriodCreativeUnits: -1,
        extra: 1,
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.infos.fields).sort()).toEqual(['extra', 'totalPeriodCreativeUnits']);

      const { periodStart, periodEnd } = period(100);
      const reversed = await credits.setPlan(tenant.teamId, {
        totalPeriodCreativeUnits: 100,
        periodStart: periodEnd,
        periodEnd: periodStart,
      });
      expect(reversed.status).toBe(400);
      expect(reversed.body.infos.fields).toEqual({ periodEnd: ['periodEnd must be after periodStart'] });

      const past = await credits.setPlan(tenant.teamId, {
        totalPeriodCreativeUnits: 100,
        periodStart: '2020-01-01T00:00:00.000Z',
        periodEnd: '2020-02-01T00:00:00.000Z',
      });
      expect(past.status).toBe(400);
      expect(past.body.infos.fields).toEqual({ periodEnd: ['periodEnd must be in the future'] });

      const future = await credits.setPlan(tenant.teamId, {
        totalPeriodCreativeUnits: 100,
        periodStart: new Date(Date.now() + 86_400_000).toISOString(),
        periodEnd: new Date(Date.now() + 40 * 86_400_000).toISOString(),
      });
      expect(future.status).toBe(400);
      expect(future.body.infos.fields).toEqual({
        periodStart: ['periodStart must not be in the future: PUT the plan when the period starts'],
      });

      expect((await credits.setPlan('team_nope', period(100))).status).toBe(404);
      expect((await credits.usage(tenant)).metered).toBe(false);
    });

    it('starts a period at full balance; the same PUT again changes nothing; an earlier period is 409', async () => {
      const plan = period(100);
      const usage = await credits.plan(tenant.teamId, plan);
      expect(usage).toEqual({
        teamId: tenant.teamId,
        metered: true,
        periodStart: plan.periodStart,
        periodEnd: plan.periodEnd,
        totalPeriodCreativeUnits: 100,
        remainingCreativeUnits: 100,
        usedCreativeUnits: 0,
      });
      expect(await credits.usage(tenant)).toEqual(usage);

      await credits.charge(tenant, 30);
      // Repeating the PUT of the current period keeps what was used.
      expect(await credits.plan(tenant.teamId, plan)).toMatchObject({
        remainingCreativeUnits: 70,
        usedCreativeUnits: 30,
      });
      // Raising the current period's total adds to what is left.
      expect(await credits.plan(tenant.teamId, { ...plan, totalPeriodCreativeUnits: 150 })).toMatchObject({
        totalPeriodCreativeUnits: 150,
        remainingCreativeUnits: 120,
        usedCreativeUnits: 30,
      });
      // A late retry of an older period never resets the balance.
      const older = await credits.setPlan(tenant.teamId, period(100, 20));
      expect(older.status).toBe(409);
      expect(older.body).toMatchObject({
        apiError: 'credit_period_outdated',
        infos: { periodStart: plan.periodStart },
      });
      // A later period starts at full balance.
      const next = period(80, 0);
      expect(await credits.plan(tenant.teamId, next)).toMatchObject({
        periodStart: next.periodStart,
        totalPeriodCreativeUnits: 80,
        remainingCreativeUnits: 80,
        usedCreativeUnits: 0,
      });
    });
  });

  it('lets a team without a plan run unmetered, recording what its jobs cost', async () => {
    const tenant = await harness.tenant();
    const job = await credits.charge(tenant, 7);
    expect(await credits.movements(job.jobId)).toEqual([{ kind: 'charge', units: 7, reason: null }]);
    expect(await credits.usage(tenant)).toEqual({
      teamId: tenant.teamId,
      metered: false,
      periodStart: null,
      periodEnd: null,
      totalPeriodCreativeUnits: null,
      remainingCreativeUnits: null,
      usedCreativeUnits: 7,
    });
    expect((await credits.cancel(tenant, job.jobId)).status).toBe(200);
    expect((await credits.usage(tenant)).usedCreativeUnits).toBe(0);
  });

  it('charges at creation and refuses what the team cannot afford with 402, creating nothing', async () => {
    const tenant = await harness.tenant();
    await credits.plan(tenant.teamId, period(10));
    const first = await credits.charge(tenant, 4);
    expect(await credits.movements(first.jobId)).toEqual([{ kind: 'charge', units: 4, reason: null }]);
    expect(await credits.remaining(tenant)).toBe(6);

    const refused = await credits.create(tenant, 7, { idempotencyKey: 'too-expensive' });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      apiError: 'insufficient_credits',
      error: `Not enough creative units: this request costs 7, team ${tenant.teamId} has 6 left in this period`,
      infos: { teamId: tenant.teamId, required: 7, remaining: 6 },
    });
    // A remote creator gets the same error as an in-process one.
    const remote = new HttpJobsApi(new InternalHttpClient('job-service', harness.url, harness.internalToken));
    const thrown = await remote
      .createJob({
        tenant: { teamId: tenant.teamId, projectId: tenant.projectId },
        jobType: 'image-generation',
        kind: 'generation',
        input: {},
        creativeUnitsCost: 100,
      })
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(InternalApiError);
    expect(thrown).toMatchObject({
      status: 402,
      apiError: 'insufficient_credits',
      infos: { required: 100, remaining: 6 },
    });

    // Nothing of the refused requests exists: no job, no charge, no fact; the balance is untouched.
    expect(await credits.jobCount(tenant)).toBe(1);
    const [{ n }] = await harness.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM jobs.credit_movements WHERE team_id = $1',
      [tenant.teamId],
    );
    expect(n).toBe('1');
    expect(await credits.usage(tenant)).toMatchObject({ remainingCreativeUnits: 6, usedCreativeUnits: 4 });

    // Exactly affordable is fine; the key of the refused request was never taken.
    const last = await credits.charge(tenant, 6);
    const again = await credits.create(tenant, 1, { idempotencyKey: 'too-expensive' });
    expect(again.status).toBe(402);
    expect(again.body.infos).toEqual({ teamId: tenant.teamId, required: 1, remaining: 0 });
    // Facts are published in commit order: once the last job's job.created is out, any fact of a
    // refused request would be too.
    await lifecycle.waitFor(last.jobId, 'job.created');
    await lifecycle.waitFor(first.jobId, 'job.created');
    const created = (
      await harness.db.query<{ id: string }>('SELECT id FROM jobs.jobs WHERE team_id = $1', [tenant.teamId])
    ).map((r) => r.id);
    expect(created.sort()).toEqual([first.jobId, last.jobId].sort());
    expect((await credits.usage(tenant)).remainingCreativeUnits).toBe(0);
  });

  it('never overdraws under concurrent charges: 20 parallel creates against a balance for 10', async () => {
    const tenant = await harness.tenant();
    await credits.plan(tenant.teamId, period(10));
    const answers = await Promise.all(Array.from({ length: 20 }, () => credits.create(tenant, 1)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(10).fill(402)]);
    expect(await credits.usage(tenant)).toMatchObject({ remainingCreativeUnits: 0, usedCreativeUnits: 10 });
    expect(await credits.jobCount(tenant)).toBe(10);
    const [{ n }] = await harness.db.query<{ n: string }>(
      `SELECT coalesce(sum(units), 0)::text AS n FROM jobs.credit_movements WHERE team_id = $1 AND kind = 'charge'`,
      [tenant.teamId],
    );
    expect(n).toBe('10');
  });

  it('refunds a canceled job once', async () => {
    const tenant = await harness.tenant();
    await credits.plan(tenant.teamId, period(20));
    const job = await credits.charge(tenant, 5);
    expect(await credits.remaining(tenant)).toBe(15);

    expect((await credits.cancel(tenant, job.jobId)).status).toBe(200);
    expect(await credits.usage(tenant)).toMatchObject({ remainingCreativeUnits: 20, usedCreativeUnits: 0 });
    expect((await credits.cancel(tenant, job.jobId)).status).toBe(409);
    expect(await credits.remaining(tenant)).toBe(20);
    expect(await credits.movements(job.jobId)).toEqual([
      { kind: 'charge', units: 5, reason: null },
      { kind: 'refund', units: 5, reason: 'canceled' },
    ]);
  });

  it('refunds a failed job once, whatever reports follow; a successful job keeps its charge', async () => {
    const tenant = await harness.tenant();
    await credits.plan(tenant.teamId, period(20));
    const failing = await credits.charge(tenant, 6);
    const succeeding = await credits.charge(tenant, 4);
    expect(await credits.remaining(tenant)).toBe(10);

    await report(executor.progress(failing.jobId, 'in-progress', 0.5));
    const failure = await executor.failed(failing.jobId, 'engine crashed');
    await waitFor(() => handled(harness, failure.id), { timeoutMs: 20_000, what: 'failure handled' });
    expect(await credits.remaining(tenant)).toBe(16);
    // A redelivered report, then a second failure report for the final job: neither refunds again.
    await executor.send(failure);
    await report(executor.failed(failing.jobId, 'engine crashed again'));
    await report(executor.succeeded(succeeding.jobId, { assetIds: ['asset_1'] }));
    expect(await credits.usage(tenant)).toMatchObject({ remainingCreativeUnits: 16, usedCreativeUnits: 4 });
    expect(await credits.movements(failing.jobId)).toEqual([
      { kind: 'charge', units: 6, reason: null },
      { kind: 'refund', units: 6, reason: 'failure' },
    ]);
    expect(await credits.movements(succeeding.jobId)).toEqual([{ kind: 'charge', units: 4, reason: null }]);
  });

  it('refunds a job charged in an ended period to that period, not to the new balance', async () => {
    const tenant = await harness.tenant();
    const first = period(10, 10);
    await credits.plan(tenant.teamId, first);
    const job = await credits.charge(tenant, 5);
    await credits.plan(tenant.teamId, period(10, 0));
    expect(await credits.remaining(tenant)).toBe(10);

    expect((await credits.cancel(tenant, job.jobId)).status).toBe(200);
    expect(await credits.usage(tenant)).toMatchObject({ remainingCreativeUnits: 10, usedCreativeUnits: 0 });
    const [old] = await harness.db.query<{ used_units: number }>(
      'SELECT used_units FROM jobs.credit_plans WHERE team_id = $1 AND period_start = $2',
      [tenant.teamId, first.periodStart],
    );
    expect(old.used_units).toBe(0);
  });

  it('refuses charges once the period has ended, until the next one starts', async () => {
    const tenant = await harness.tenant();
    const start = new Date(Date.now() - 60_000);
    const end = new Date(Date.now() + 1_500);
    await credits.plan(tenant.teamId, {
      totalPeriodCreativeUnits: 100,
      periodStart: start.toISOString(),
      periodEnd: end.toISOString(),
    });
    await new Promise((r) => setTimeout(r, end.getTime() - Date.now() + 100));
    const refused = await credits.create(tenant, 1);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      apiError: 'credit_period_ended',
      infos: { required: 1, periodEnd: end.toISOString() },
    });
    // Free jobs are never refused.
    expect((await credits.create(tenant, 0)).status).toBe(200);
    await credits.plan(tenant.teamId, period(100, 0));
    expect((await credits.create(tenant, 1)).status).toBe(200);
  });

  it('shows usage to team and project admins only, and another team’s to nobody', async () => {
    const tenant = await harness.tenant();
    const other = await harness.tenant();
    const get = (auth: string, teamId = tenant.teamId) =>
      harness.request('GET', `/v1/teams/${teamId}/usage`, { auth }).then((r) => r.status);
    expect(await get(tenant.auth.teamAdmin)).toBe(200);
    expect(await get(tenant.auth.projectAdmin)).toBe(200);
    expect(await get(tenant.auth.teamMember)).toBe(403);
    expect(await get(tenant.auth.projectMember)).toBe(403);
    expect(await get(other.auth.teamAdmin)).toBe(404);
    expect(await get('')).toBe(401);
  });
});
