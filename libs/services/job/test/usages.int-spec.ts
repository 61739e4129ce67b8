import { waitFor, type Tenant } from '@genasset/testing';
import { CreditsClient, period } from './support/credits';
import { FakeExecutor } from './support/executor';
import { handled, startJobHarness, type JobHarness } from './support/job-harness';

jest.setTimeout(120_000);

// GET /v1/usages with the real job-service: units from the ledger (charges minus refunds), assets
// from successful jobs, per author and per charge, scoped to the caller's project or team.
describe('GET /v1/usages', () => {
  let harness: JobHarness;
  let credits: CreditsClient;
  let executor: FakeExecutor;
  let t: Tenant;
  let other: Tenant;

  const usages = (query: string, auth = t.auth.projectMember) => harness.request('GET', `/v1/usages${query}`, { auth });
  const seriesTotal = (body: { usages: { usageName: string; points: { value: string }[] }[] }, name: string) =>
    body.usages.find((u) => u.usageName === name)?.points.reduce((sum, p) => sum + Number(p.value), 0);

  beforeAll(async () => {
    harness = await startJobHarness();
    credits = new CreditsClient(harness);
    executor = await new FakeExecutor().start();
    [t, other] = await Promise.all([harness.tenant(), harness.tenant()]);
    await credits.plan(t.teamId, period(1000));
    await credits.plan(other.teamId, period(1000));

    // t: an upscale producing 2 assets (4 units), an image generation refunded on cancel (6 units),
    // a pixelate by another author (3 units). other: 50 units that t must never see.
    const upscale = await credits.create(t, 4, { jobType: 'upscale' });
    const done = await executor.succeeded(upscale.body.job.jobId, { assetIds: ['asset_a', 'asset_b'] });
    await waitFor(() => handled(harness, done.id), { timeoutMs: 20_000, what: 'success handled' });
    const canceled = await credits.charge(t, 6);
    expect((await credits.cancel(t, canceled.jobId)).status).toBe(200);
    await credits.create(t, 3, { jobType: 'pixelate', tenant: { teamId: t.teamId, projectId: t.projectId, authorId: 'key_other' } });
    await credits.charge(other, 50);
  });
  afterAll(async () => {
    await executor?.stop();
    await harness?.close();
  });

  it('answers units per point, assets per usage name, units per author and the charges, newest first', async () => {
    const res = await usages('?timeRange=24h');
    expect(res.status).toBe(200);
    expect(res.body.usages[0]).toMatchObject({ usageName: 'creative-unit-cost', granularity: '15m' });
    expect(res.body.usages[0].points).toHaveLength(97);
    expect(seriesTotal(res.body, 'creative-unit-cost')).toBe(4 + 3); // 6 charged, then refunded
    expect(seriesTotal(res.body, 'upscale')).toBe(2);
    expect(res.body.usages.map((u: { usageName: string }) => u.usageName).sort()).toEqual(['creative-unit-cost', 'upscale']);

    expect(res.body.consumption).toEqual([
      { userId: 'key_creator', userData: { isApiKey: true, apiKeyId: 'key_creator' }, value: 4 },
      { userId: 'key_other', userData: { isApiKey: true, apiKeyId: 'key_other' }, value: 3 },
    ]);
    expect(res.body.activity.map((a: { action: string; creativeUnitsCost: number }) => [a.action, a.creativeUnitsCost])).toEqual([
      ['pixelate', 3],
      ['images-generation', 0],
      ['upscale', 4],
    ]);
    expect(res.body.activity[2]).toMatchObject({ projectId: t.projectId, userId: 'key_creator', data: { job: { metadata: { assetIds: ['asset_a', 'asset_b'] } } } });
  });

  it('filters: type, userIds, projectIds, activityOffset; dates outside the period count nothing', async () => {
    const onlyActivity = await usages('?type=activity&userIds=key_other');
    expect(Object.keys(onlyActivity.body)).toEqual(['activity']);
    expect(onlyActivity.body.activity).toHaveLength(1);
    // Unknown types answer every section, as upstream documents.
    expect(Object.keys((await usages('?type=nonsense')).body).sort()).toEqual(['activity', 'consumption', 'usages']);
    expect((await usages('?type=activity&activityOffset=2')).body.activity).toHaveLength(1);
    expect((await usages('?type=activity&activityOffset=-5')).body.activity).toHaveLength(3);
    const team = await usages(`?type=consumption&projectIds=${t.projectId}`, t.auth.teamAdmin);
    expect(team.body.consumption.map((c: { value: number }) => c.value)).toEqual([4, 3]);
    const past = await usages('?startDate=2025-01-01T00:00:00Z&endDate=2025-03-01T00:00:00Z&type=usages,consumption');
    expect(past.body.usages[0].granularity).toBe('1d');
    expect(seriesTotal(past.body, 'creative-unit-cost')).toBe(0);
    expect(past.body.consumption).toEqual([]);
  });

  it('never shows another tenant: its project ids are 404, its units never counted', async () => {
    expect((await usages(`?projectIds=${other.projectId}`)).status).toBe(404);
    expect((await usages(`?projectIds=${other.projectId}`, t.auth.teamAdmin)).status).toBe(404);
    const theirs = await usages('?type=consumption', other.auth.teamMember);
    expect(theirs.body.consumption).toEqual([{ userId: 'key_creator', userData: { isApiKey: true, apiKeyId: 'key_creator' }, value: 50 }]);
  });

  it.each([
    ['timeRange=121d', 'timeRange'],
    ['timeRange=soon', 'timeRange'],
    ['startDate=2026-01-01', 'endDate'],
    ['endDate=2026-01-01', 'startDate'],
    ['startDate=2026-01-01&endDate=2026-06-01', 'endDate'],
    ['startDate=nope&endDate=2026-06-01', 'startDate'],
    ['projectIds=a%20b', 'projectIds'],
    ['userIds=%3Cx%3E', 'userIds'],
    ['unknown=1', 'unknown'],
  ])('refuses %s → 400 naming %s', async (query, field) => {
    const res = await usages(`?${query}`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.infos.fields)).toEqual([field]);
  });

  it('no credentials → 401', async () => {
    expect((await harness.request('GET', '/v1/usages')).status).toBe(401);
  });
});
