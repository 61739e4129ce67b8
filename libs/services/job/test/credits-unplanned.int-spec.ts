import { CreditsClient, period } from './support/credits';
import { startJobHarness, type JobHarness } from './support/job-harness';

jest.setTimeout(120_000);

// A platform that sells units: teams must have a plan before any job that costs something.
describe('job-service creative units with CREDITS_UNPLANNED_TEAMS=refuse', () => {
  let harness: JobHarness;
  let credits: CreditsClient;

  beforeAll(async () => {
    harness = await startJobHarness({ env: { CREDITS_UNPLANNED_TEAMS: 'refuse' } });
    credits = new CreditsClient(harness);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('refuses a team without a plan with 402 no_credit_plan, but not free jobs', async () => {
    const tenant = await harness.tenant();
    const refused = await credits.create(tenant, 3);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      apiError: 'no_credit_plan',
      infos: { teamId: tenant.teamId, required: 3 },
    });
    expect(await credits.jobCount(tenant)).toBe(0);
    expect((await credits.create(tenant, 0)).status).toBe(200);
    await credits.plan(tenant.teamId, period(5));
    expect((await credits.create(tenant, 3)).status).toBe(200);
    expect(await credits.remaining(tenant)).toBe(2);
  });
});
