import { startJobHarness, type JobHarness } from './support/job-harness';

// The harness every service's integration tests use: a real process wiring on real services.
describe('service harness (job-service)', () => {
  let harness: JobHarness;
  beforeAll(async () => {
    harness = await startJobHarness();
  });
  afterAll(() => harness?.close());

  it('is ready with database and broker checks green', async () => {
    const ready = await harness.request('GET', '/readyz');
    expect(ready).toMatchObject({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', broker: 'ok' } },
    });
  });

  it('provisions tenants whose keys carry the right roles and scopes', async () => {
    const tenant = await harness.tenant();
    const me = await harness.request('GET', '/v1/me', { auth: tenant.auth.teamWebhookManager });
    expect(me.body.apiKey).toMatchObject({
      teamId: tenant.teamId,
      projectId: null,
      role: 'member',
      scopes: ['team.webhooks.manage'],
    });
    const admin = await harness.request('GET', '/v1/me', { auth: tenant.auth.projectAdmin });
    expect(admin.body.apiKey).toMatchObject({ projectId: tenant.projectId, role: 'admin' });
  });
});
