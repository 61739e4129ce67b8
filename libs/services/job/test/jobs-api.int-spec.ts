import { InternalApiError, TOPICS, type CreateJobCommand, type JobsApi } from '@genasset/contracts';
import { HttpJobsApi, InternalHttpClient } from '@genasset/internal-api';
import { TopicReader, type Tenant } from '@genasset/testing';
import { JobsApiService } from '../src/internal/jobs-api.service';
import { startJobHarness, type JobHarness } from './support/job-harness';
import { injected, JOBS_API_CALLER } from './support/jobs-api-caller';

jest.setTimeout(120_000);

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

// The internal JobsApi both ways: in-process (a module of the same process injects JOBS_API)
// and over HTTP exactly as a remote process calls it (HttpJobsApi from libs/internal-api).
describe('job-service internal JobsApi', () => {
  let harness: JobHarness;
  let remote: JobsApi;
  let lifecycle: TopicReader;
  let work: TopicReader;
  let tenant: Tenant;
  const command = (overrides: Partial<CreateJobCommand> = {}): CreateJobCommand => ({
    tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: 'key_creator' },
    jobType: 'pixelate',
    kind: 'generation',
    input: { image: 'asset_abc', pixelGridSize: 32 },
    creativeUnitsCost: 3,
    ...overrides,
  });

  beforeAll(async () => {
    [lifecycle, work] = await Promise.all([
      new TopicReader(TOPICS.jobLifecycle).start(),
      new TopicReader(TOPICS.jobWork).start(),
    ]);
    harness = await startJobHarness({ also: [JOBS_API_CALLER] });
    remote = new HttpJobsApi(new InternalHttpClient('job-service', harness.url, harness.internalToken));
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all([lifecycle?.stop(), work?.stop()]);
  });

  it('creates a queued job over HTTP and answers with the public job shape', async () => {
    const job = await remote.createJob(command());
    expect(job).toEqual({
      jobId: expect.stringMatching(/^job_[0-9A-Z]{26}$/),
      jobType: 'pixelate',
      status: 'queued',
      progress: 0,
      ownerId: tenant.projectId,
      authorId: 'key_creator',
      statusHistory: [{ status: 'queued', date: job.createdAt }],
      metadata: { input: { image: 'asset_abc', pixelGridSize: 32 }, output: {}, assetIds: [] },
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: job.createdAt,
    });
    const [row] = await harness.db.query(
      'SELECT creative_units_cost, team_id, kind FROM jobs.jobs WHERE id = $1',
      [job.jobId],
    );
    expect(row).toEqual({ creative_units_cost: 3, team_id: tenant.teamId, kind: 'generation' });

    expect(await remote.getJob(command().tenant, job.jobId)).toEqual(job);
    // Another tenant (or a made-up id) gets nothing: the HTTP client maps 404 to undefined.
    const other = await harness.tenant();
    expect(
      await remote.getJob({ teamId: other.teamId, projectId: other.projectId }, job.jobId),
    ).toBeUndefined();
    expect(await remote.getJob(command().tenant, 'job_00000000000000000000000000')).toBeUndefined();
  });

  it('publishes job.created and job.work.requested, with modelId only when the job runs a model', async () => {
    const plain = await remote.createJob(command());
    const withModel = await remote.createJob(
      command({
        jobType: 'model-training',
        kind: 'model-training',
        modelId: 'model_xyz',
        input: { name: 'cats' },
      }),
    );

    const [created] = await lifecycle.waitFor(plain.jobId, 'job.created');
    expect(created.key).toBe(plain.jobId);
    expect(created.envelope).toMatchObject({
      type: 'job.created',
      producer: 'job-service',
      key: plain.jobId,
    });
    expect(created.envelope.data).toEqual({
      jobId: plain.jobId,
      jobType: 'pixelate',
      kind: 'generation',
      status: 'queued',
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      progress: 0,
    });
    const [createdWithModel] = await lifecycle.waitFor(withModel.jobId, 'job.created');
    expect(createdWithModel.envelope.data).toMatchObject({
      kind: 'model-training',
      jobType: 'model-training',
      modelId: 'model_xyz',
    });

    const [requested] = await work.waitFor(plain.jobId, 'job.work.requested');
    expect(requested.key).toBe(plain.jobId);
    expect(requested.envelope.data).toEqual({
      jobId: plain.jobId,
      jobType: 'pixelate',
      kind: 'generation',
      tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: 'key_creator' },
      input: { image: 'asset_abc', pixelGridSize: 32 },
    });
    const [requestedWithModel] = await work.waitFor(withModel.jobId, 'job.work.requested');
    expect(requestedWithModel.envelope.data).toMatchObject({ modelId: 'model_xyz', input: { name: 'cats' } });
  });

  it('serves JOBS_API in-process to the other services of the process', async () => {
    expect(injected.api).toBeInstanceOf(JobsApiService);
    const job = await injected.api!.createJob(
      command({ jobType: 'assets-download', kind: 'asset-download', input: { assetIds: ['asset_1'] } }),
    );
    expect(job).toMatchObject({ jobType: 'assets-download', status: 'queued', ownerId: tenant.projectId });
    expect(await injected.api!.getJob(command().tenant, job.jobId)).toEqual(job);
    // The same job over HTTP: one owner, one shape.
    expect(await remote.getJob(command().tenant, job.jobId)).toEqual(job);
    await lifecycle.waitFor(job.jobId, 'job.created');
  });

  it('counts a project’s jobs per model over HTTP, as in-process; another project’s jobs never count', async () => {
    const fresh = await harness.tenant();
    const ref = { teamId: fresh.teamId, projectId: fresh.projectId, authorId: 'key_creator' };
    const other = await harness.tenant();
    for (const [owner, modelId] of [
      [ref, 'model_a'],
      [ref, 'model_a'],
      [ref, 'model_b'],
      [{ teamId: other.teamId, projectId: other.projectId }, 'model_a'],
    ] as const) {
      await remote.createJob(command({ tenant: owner, modelId, jobType: 'custom' }));
    }
    const expected = { model_a: 2, model_b: 1 };
    expect(await remote.modelJobCounts(ref, ['model_a', 'model_b', 'model_c'])).toEqual(expected);
    expect(await injected.api!.modelJobCounts(ref, ['model_a', 'model_b', 'model_c'])).toEqual(expected);
    expect(await remote.modelJobCounts(ref, [])).toEqual({});
  });

  it('returns the first job for a repeated idempotency key, also under concurrency, and charges once', async () => {
    const first = await remote.createJob(command({ idempotencyKey: 'gen-1' }));
    const again = await injected.api!.createJob(command({ idempotencyKey: 'gen-1' }));
    expect(again).toEqual(first);

    const racing = await Promise.all(
      Array.from({ length: 6 }, () => remote.createJob(command({ idempotencyKey: 'gen-race' }))),
    );
    expect(new Set(racing.map((j) => j.jobId)).size).toBe(1);

    const rows = await harness.db.query<{ idempotency_key: string; n: string }>(
      `SELECT idempotency_key, count(*)::text AS n FROM jobs.jobs WHERE project_id = $1 AND idempotency_key IS NOT NULL GROUP BY 1 ORDER BY 1`,
      [tenant.projectId],
    );
    expect(rows).toEqual([
      { idempotency_key: 'gen-1', n: '1' },
      { idempotency_key: 'gen-race', n: '1' },
    ]);
    // The same key in another project is another job.
    const other = await harness.tenant();
    const elsewhere = await remote.createJob(
      command({ tenant: { teamId: other.teamId, projectId: other.projectId }, idempotencyKey: 'gen-1' }),
    );
    expect(elsewhere.jobId).not.toBe(first.jobId);
    await lifecycle.waitFor(racing[0].jobId, 'job.created');
    expect(lifecycle.of(racing[0].jobId, 'job.created')).toHaveLength(1);
  });

  it('refuses an idempotency key reused for another kind of job with 409', async () => {
    await remote.createJob(command({ idempotencyKey: 'reused' }));
    const error = await remote
      .createJob(command({ idempotencyKey: 'reused', jobType: 'upscale' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalApiError);
    expect(error).toMatchObject({ status: 409, apiError: 'idempotency_key_reused' });
  });

  it('refuses invalid commands with a 400 naming the field, in-process and over HTTP alike', async () => {
    const bad = { ...command(), jobType: 'teleport', creativeUnitsCost: -1 } as unknown as CreateJobCommand;
    for (const api of [remote, injected.api!]) {
      const error = (await api.createJob(bad).catch((e: unknown) => e)) as InternalApiError;
      expect(error).toBeInstanceOf(InternalApiError);
      expect(error.status).toBe(400);
      expect(error.apiError).toBe('validation_error');
      expect(Object.keys(error.infos.fields as object).sort()).toEqual(['creativeUnitsCost', 'jobType']);
    }
    const [{ n }] = await harness.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM jobs.jobs WHERE input->>'image' = 'asset_abc' AND job_type = 'teleport'`,
    );
    expect(n).toBe('0');
  });

  // PostgreSQL refuses both in jsonb/text (22P02, 22021): they were a 500 from every route that
  // creates a job (a lone surrogate in a txt2img prompt), not the creator's 400.
  it('refuses input the database cannot store (NUL, unpaired surrogate) with a 400 naming the field', async () => {
    const cases: [Partial<CreateJobCommand>, string][] = [
      [{ input: { prompt: 'a \ud800 cat' } }, 'input.prompt'],
      [{ input: { images: ['ok', 'b\udc00'] } }, 'input.images.1'],
      [{ input: { nested: { ['k\ud800']: 1 } } }, 'input.nested.k\ud800'],
      [{ input: { prompt: 'nul \u0000' } }, 'input.prompt'],
      [{ idempotencyKey: 'key \u0000' }, 'idempotencyKey'],
      [{ modelId: 'model_\ud83d' }, 'modelId'],
      [{ tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: 'key_\u0000' } }, 'tenant.authorId'],
    ];
    for (const [overrides, field] of cases) {
      for (const api of [remote, injected.api!]) {
        const error = (await api.createJob(command(overrides)).catch((e: unknown) => e)) as InternalApiError;
        expect(error).toBeInstanceOf(InternalApiError);
        expect({ field, status: error.status, apiError: error.apiError }).toEqual({
          field,
          status: 400,
          apiError: 'validation_error',
        });
        expect(Object.keys(error.infos.fields as object)).toEqual([field]);
      }
    }
    // A well-formed pair (an emoji) is stored as it is.
    const job = await remote.createJob(command({ input: { prompt: 'a 🐱' } }));
    expect(job.metadata.input).toEqual({ prompt: 'a 🐱' });
  });

  it('answers internal routes only to holders of INTERNAL_API_TOKEN', async () => {
    const body = command();
    expect((await harness.request('POST', '/internal/v1/jobs', { body })).status).toBe(401);
    expect((await harness.request('POST', '/internal/v1/jobs', { body, auth: 'Bearer wrong' })).status).toBe(
      401,
    );
    expect(
      (
        await harness.request(
          'GET',
          `/internal/v1/jobs/job_x?teamId=${tenant.teamId}&projectId=${tenant.projectId}`,
          { auth: tenant.auth.projectAdmin },
        )
      ).status,
    ).toBe(401);
    // Internal routes are not part of the public API document.
    const doc = await harness.request('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths).filter((p) => p.includes('internal'))).toEqual([]);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/v1/jobs', '/v1/jobs/{jobId}', '/v1/jobs/{jobId}/action']),
    );
    // pageSize is an integer (1.5 is a 400), as the document says.
    const pageSize = doc.body.paths['/v1/jobs'].get.parameters.find((p: { name: string }) => p.name === 'pageSize');
    expect(pageSize.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });
});
