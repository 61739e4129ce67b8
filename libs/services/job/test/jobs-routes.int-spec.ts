import { TOPICS, type JobView } from '@genasset/contracts';
import { TopicReader, type Tenant } from '@genasset/testing';
import { startJobHarness, type JobHarness } from './support/job-harness';

jest.setTimeout(120_000);

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

// The public routes: GET /v1/jobs/{jobId}, GET /v1/jobs, POST /v1/jobs/{jobId}/action.
describe('job-service public routes', () => {
  let harness: JobHarness;
  let lifecycle: TopicReader;
  let work: TopicReader;
  let tenant: Tenant;

  beforeAll(async () => {
    [lifecycle, work] = await Promise.all([
      new TopicReader(TOPICS.jobLifecycle).start(),
      new TopicReader(TOPICS.jobWork).start(),
    ]);
    harness = await startJobHarness();
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all([lifecycle?.stop(), work?.stop()]);
  });

  /** A second project in the tenant's team, with a member key. */
  async function secondProject(of: Tenant): Promise<{ projectId: string; auth: string }> {
    const admin = { auth: `Bearer ${harness.adminToken}` };
    const { body: created } = await harness.request('POST', `/admin/v1/teams/${of.teamId}/projects`, {
      ...admin,
      body: { name: 'second' },
    });
    const { body: key } = await harness.request('POST', '/admin/v1/api-keys', {
      ...admin,
      body: { teamId: of.teamId, projectId: created.project.id, role: 'member' },
    });
    return {
      projectId: created.project.id,
      auth: `Basic ${Buffer.from(`${key.apiKey}:${key.apiSecret}`).toString('base64')}`,
    };
  }

  describe('GET /v1/jobs/{jobId}', () => {
    it('returns { job } in the upstream shape', async () => {
      const created = await harness.createJob(tenant, {
        jobType: 'upscale',
        input: { image: 'asset_1', scalingFactor: 4 },
      });
      const res = await harness.request('GET', `/v1/jobs/${created.jobId}`, {
        auth: tenant.auth.projectMember,
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['job']);
      expect(res.body.job).toEqual({
        jobId: created.jobId,
        jobType: 'upscale',
        status: 'queued',
        progress: 0,
        ownerId: tenant.projectId,
        authorId: 'key_author',
        statusHistory: [{ date: created.createdAt, status: 'queued' }],
        metadata: { input: { image: 'asset_1', scalingFactor: 4 }, output: {}, assetIds: [] },
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
    });

    it('answers 404 for another tenant’s job and for an unknown id, 401 without credentials', async () => {
      const job = await harness.createJob(tenant);
      const stranger = await harness.tenant();
      for (const auth of [stranger.auth.projectAdmin, stranger.auth.teamAdmin]) {
        const res = await harness.request('GET', `/v1/jobs/${job.jobId}`, { auth });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({
          apiError: 'not_found',
          error: 'Job not found',
          infos: { id: job.jobId },
        });
      }
      expect(
        (
          await harness.request('GET', '/v1/jobs/job_01JD0000000000000000000000', {
            auth: tenant.auth.projectMember,
          })
        ).status,
      ).toBe(404);
      expect((await harness.request('GET', `/v1/jobs/${job.jobId}`)).status).toBe(401);
    });

    it('shows a project’s jobs to its keys and to team-level keys, not to other projects of the team', async () => {
      const job = await harness.createJob(tenant);
      const sibling = await secondProject(tenant);
      expect(
        (await harness.request('GET', `/v1/jobs/${job.jobId}`, { auth: tenant.auth.teamMember })).status,
      ).toBe(200);
      expect((await harness.request('GET', `/v1/jobs/${job.jobId}`, { auth: sibling.auth })).status).toBe(
        404,
      );
    });
  });

  describe('GET /v1/jobs', () => {
    let t: Tenant;
    let jobs: JobView[];
    const list = async (query: string, auth = t.auth.projectMember) =>
      harness.request('GET', `/v1/jobs${query}`, { auth });
    const ids = (body: { jobs: JobView[] }) => body.jobs.map((j) => j.jobId);

    beforeAll(async () => {
      t = await harness.tenant();
      jobs = [];
      const specs = [
        { jobType: 'upscale' as const },
        {
          jobType: 'pixelate' as const,
          tenant: { teamId: t.teamId, projectId: t.projectId, authorId: 'key_other' },
        },
        { jobType: 'upscale' as const, input: { prompt: 'secret', hideResults: true } },
        { jobType: 'texture' as const },
        { jobType: 'assets-download' as const, kind: 'asset-download' as const },
      ];
      // Sequential: each job is newer than the previous one.
      for (const spec of specs) jobs.push(await harness.createJob(t, spec));
      const canceled = await harness.request('POST', `/v1/jobs/${jobs[3].jobId}/action`, {
        auth: t.auth.projectMember,
        body: { action: 'cancel' },
      });
      expect(canceled.status).toBe(200);
    });

    it('lists the project’s jobs newest first, 10 per page by default', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(jobs.map((j) => j.jobId).reverse());
      expect(res.body.nextPaginationToken).toBeUndefined();
      expect(res.body.jobs[0]).toMatchObject({
        jobType: 'assets-download',
        ownerId: t.projectId,
        statusHistory: [{ status: 'queued' }],
      });
    });

    it('pages with nextPaginationToken (keyset), without overlap or gaps', async () => {
      const seen: string[] = [];
      let token: string | undefined;
      const pages: number[] = [];
      do {
        const res = await list(`?pageSize=2${token ? `&paginationToken=${encodeURIComponent(token)}` : ''}`);
        expect(res.status).toBe(200);
        pages.push(res.body.jobs.length);
        seen.push(...ids(res.body));
        token = res.body.nextPaginationToken;
      } while (token);
      expect(pages).toEqual([2, 2, 1]);
      expect(seen).toEqual(jobs.map((j) => j.jobId).reverse());
    });

    it('filters by type, types (which wins over type), status, authorId and hideResults', async () => {
      const [upscale, pixelate, hidden, texture, download] = jobs.map((j) => j.jobId);
      expect(ids((await list('?type=upscale')).body)).toEqual([hidden, upscale]);
      expect(ids((await list('?types=pixelate,texture&type=upscale')).body)).toEqual([texture, pixelate]);
      expect(ids((await list('?status=canceled')).body)).toEqual([texture]);
      expect(ids((await list('?status=queued&type=upscale')).body)).toEqual([hidden, upscale]);
      expect(ids((await list('?authorId=key_other')).body)).toEqual([pixelate]);
      expect(ids((await list('?hideResults=false')).body)).toEqual([download, texture, pixelate, upscale]);
      expect(ids((await list('?hideResults=true')).body)).toHaveLength(5);
    });

    it('scopes the list: a team-level key sees every project of its team, a project key only its own', async () => {
      const sibling = await secondProject(t);
      const other = await harness.createJob({ ...t, projectId: sibling.projectId }, { jobType: 'segment' });
      expect(ids((await list('', sibling.auth)).body)).toEqual([other.jobId]);
      expect(ids((await list('')).body)).not.toContain(other.jobId);
      expect(ids((await list('', t.auth.teamMember)).body)).toEqual([
        other.jobId,
        ...jobs.map((j) => j.jobId).reverse(),
      ]);
      expect(ids((await list('', tenant.auth.teamAdmin)).body)).not.toContain(other.jobId);
    });

    it('answers 400 naming the field for a bad filter or token', async () => {
      const cases: [string, string][] = [
        ['?pageSize=0', 'pageSize'],
        ['?pageSize=201', 'pageSize'],
        ['?pageSize=ten', 'pageSize'],
        ['?status=running', 'status'],
        ['?type=teleport', 'type'],
        ['?types=upscale,teleport', 'types'],
        ['?hideResults=maybe', 'hideResults'],
        ['?authorId=', 'authorId'],
        ['?paginationToken=garbage', 'paginationToken'],
        [
          `?paginationToken=${Buffer.from('["+275760-09-13T00:00:00.000Z","job_1"]').toString('base64url')}`,
          'paginationToken',
        ],
        ['?createdAfter=2026-01-01', 'createdAfter'],
      ];
      for (const [query, field] of cases) {
        const res = await list(query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(Object.keys(res.body.infos.fields)).toEqual([field]);
      }
    });
  });

  describe('POST /v1/jobs/{jobId}/action', () => {
    it('cancels a job: status and history, { job } back, job.canceled and job.work.canceled published', async () => {
      const job = await harness.createJob(tenant, { modelId: 'model_m1' });
      const res = await harness.request('POST', `/v1/jobs/${job.jobId}/action`, {
        auth: tenant.auth.projectMember,
        body: { action: 'cancel' },
      });
      expect(res.status).toBe(200);
      expect(res.body.job).toMatchObject({ jobId: job.jobId, status: 'canceled', progress: 0 });
      expect(res.body.job.statusHistory.map((h: { status: string }) => h.status)).toEqual([
        'queued',
        'canceled',
      ]);
      expect(res.body.job.updatedAt).toBe(res.body.job.statusHistory[1].date);
      expect(await harness.getJob(tenant, job.jobId)).toEqual(res.body.job);

      const [canceled] = await lifecycle.waitFor(job.jobId, 'job.canceled');
      expect(canceled.envelope.data).toEqual({
        jobId: job.jobId,
        jobType: 'upscale',
        kind: 'generation',
        status: 'canceled',
        teamId: tenant.teamId,
        projectId: tenant.projectId,
        progress: 0,
        modelId: 'model_m1',
      });
      expect(lifecycle.types(job.jobId)).toEqual(['job.created', 'job.canceled']);
      const [stop] = await work.waitFor(job.jobId, 'job.work.canceled');
      expect(stop.envelope.data).toEqual({ jobId: job.jobId, jobType: 'upscale', kind: 'generation' });
    });

    it('answers 409 saying why when the job is already final', async () => {
      const job = await harness.createJob(tenant);
      const cancel = () =>
        harness.request('POST', `/v1/jobs/${job.jobId}/action`, {
          auth: tenant.auth.projectMember,
          body: { action: 'cancel' },
        });
      expect((await cancel()).status).toBe(200);
      const again = await cancel();
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        apiError: 'conflict',
        error: `Job ${job.jobId} cannot be canceled: it is already canceled`,
        infos: { jobId: job.jobId, status: 'canceled' },
      });
      expect((await harness.getJob(tenant, job.jobId)).statusHistory).toHaveLength(2);
    });

    it('answers 404 for another tenant’s job (and changes nothing), 400 for an unknown action', async () => {
      const job = await harness.createJob(tenant);
      const stranger = await harness.tenant();
      const res = await harness.request('POST', `/v1/jobs/${job.jobId}/action`, {
        auth: stranger.auth.projectAdmin,
        body: { action: 'cancel' },
      });
      expect(res.status).toBe(404);
      expect((await harness.getJob(tenant, job.jobId)).status).toBe('queued');

      for (const body of [{ action: 'pause' }, {}, { action: 'cancel', force: true }]) {
        const bad = await harness.request('POST', `/v1/jobs/${job.jobId}/action`, {
          auth: tenant.auth.projectMember,
          body,
        });
        expect(bad.status).toBe(400);
      }
      expect((await harness.getJob(tenant, job.jobId)).status).toBe('queued');
    });
  });
});
