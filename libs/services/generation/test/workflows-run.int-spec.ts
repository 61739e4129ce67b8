import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor, WebhookReceiver, type Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(240_000);

const IMAGE_INPUT = [{ name: 'image', type: 'file', kind: 'image', required: { always: true } }];
const fromWorkflow = { name: 'image', type: 'file', ref: { node: 'workflow', name: 'image' } };
const from = (node: string) => ({ name: 'image', type: 'file', ref: { node } });
const PIXELATE_PARAMS = [
  { name: 'pixelGridSize', type: 'number', value: 32 },
  { name: 'removeNoise', type: 'boolean', value: true },
];

/** upscale the workflow's image, then pixelate the upscaled one: both on the built-in image engine. */
const UPSCALE_THEN_PIXELATE = {
  name: 'Upscaled pixel art',
  description: 'upscale then pixelate',
  inputs: [...IMAGE_INPUT, { name: 'grid', type: 'number' }],
  flow: [
    { id: 'upscale', type: 'upscale', inputs: [fromWorkflow] },
    {
      id: 'pixelate',
      type: 'pixelate',
      inputs: [
        from('upscale'),
        { name: 'pixelGridSize', type: 'number', ref: { node: 'workflow', name: 'grid' } },
        { name: 'removeNoise', type: 'boolean', value: true },
      ],
    },
  ],
};

interface Job {
  jobId: string;
  jobType: string;
  status: string;
  progress: number;
  metadata: { input: Record<string, unknown>; output: Record<string, any>; assetIds: string[]; flow?: Record<string, unknown>[] };
}

// PUT /v1/workflows/{id}/run with the real job-service, asset-service and inference-worker (its
// built-in image engine), on the real PostgreSQL, broker and S3 server.
describe('PUT /v1/workflows/{workflowId}/run', () => {
  let harness: GenerationHarness;
  /** Another deployment on the same broker (as test files running at once are): it must leave this one's runs alone. */
  let neighbour: GenerationHarness;
  let tenant: Tenant;
  let other: Tenant;
  let hanging: Server;
  let hooks: WebhookReceiver;
  const held: { end: () => void }[] = [];

  beforeAll(async () => {
    // The http engine's server for vectorize: it never answers, so a vectorize step runs until canceled.
    hanging = createServer((_req, res) => held.push({ end: () => res.destroy() }));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/run`;
    [harness, neighbour] = await Promise.all([
      startGenerationHarness(
        { INFERENCE_PREVIEW: 'off', INFERENCE_ENGINES: 'remove-background=none,vectorize=http', INFERENCE_HTTP_URL: url, INFERENCE_HTTP_RETRIES: '0' },
        { worker: true, webhooks: true },
      ),
      startGenerationHarness(),
    ]);
    [tenant, other] = [await harness.tenant(), await harness.tenant()];
    hooks = await WebhookReceiver.start();
    await ok('POST', `/v1/projects/${tenant.projectId}/webhook-endpoints`, { url: hooks.url, enabledEvents: ['*'] });
  });
  afterAll(async () => {
    held.forEach((h) => h.end());
    await hooks?.close();
    await new Promise((resolve) => hanging?.close(resolve));
    await harness?.close();
    await neighbour?.close();
  });

  const call = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    harness.request(method, path, { auth: who.auth.projectAdmin, ...(body === undefined ? {} : { body }) });
  const ok = async (method: string, path: string, body?: unknown, who: Tenant = tenant) => {
    const res = await call(method, path, body, who);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const workflow = async (definition: object): Promise<string> => (await ok('POST', '/v1/workflows', definition)).workflow.id;
  const job = async (jobId: string): Promise<Job> => (await ok('GET', `/v1/jobs/${jobId}`)).job;
  const finalJob = (jobId: string) =>
    waitFor(async () => {
      const current = await job(jobId);
      return ['success', 'failure', 'canceled'].includes(current.status) ? current : undefined;
    }, { timeoutMs: 90_000, intervalMs: 200, what: `job ${jobId} to end` });
  /** The run is in the status expected, or the error says why not: the job's failure reason and the run's step rows. */
  const expectEnded = async (run: Job, status: string) => {
    if (run.status === status) return;
    const steps = await harness.db.query(
      'SELECT step_id, status, child_job_id, failure_reason, asset_ids FROM generation.workflow_run_steps WHERE job_id = $1 ORDER BY position',
      [run.jobId],
    );
    throw new Error(
      `run ${run.jobId} ended ${run.status}, expected ${status}; failure reason: ${run.metadata.output?.errorMessage ?? 'none'}\n` +
        `steps: ${JSON.stringify(steps)}`,
    );
  };
  const asset = async (assetId: string) => (await ok('GET', `/v1/assets/${assetId}`)).asset;
  const movements = (jobId: string) =>
    harness.db.query<{ kind: string; units: number; reason: string | null }>(
      'SELECT kind, units, reason FROM jobs.credit_movements WHERE job_id = $1 ORDER BY id',
      [jobId],
    );
  const used = async (who: Tenant) =>
    (await harness.request('GET', `/v1/teams/${who.teamId}/usage`, { auth: who.auth.teamAdmin })).body.usedCreativeUnits as number;
  /** The webhooks sent about one job: their types, in order of arrival. */
  const webhooksOf = (jobId: string, count: number) =>
    waitFor(() => {
      const events = hooks.requests
        .map((r) => JSON.parse(r.rawBody.toString()) as { type: string; data: { jobId: string; jobType: string } })
        .filter((e) => e.data.jobId === jobId);
      return events.length >= count ? events : undefined;
    }, { timeoutMs: 20_000, what: `${count} webhooks about ${jobId}` });
  const state = async () => JSON.stringify([
    await harness.db.query('SELECT * FROM generation.workflow_runs ORDER BY job_id'),
    await harness.countJobs(tenant.projectId),
  ]);

  it('dry run answers 269 with the price of every step and starts nothing', async () => {
    const id = await workflow(UPSCALE_THEN_PIXELATE);
    const image = await harness.uploadAsset(tenant);
    const before = await state();
    const res = await call('PUT', `/v1/workflows/${id}/run?dryRun=true`, { inputs: { image, grid: 16 } });
    expect(res.status).toBe(269);
    const upscale = await call('POST', '/v1/generate/upscale?dryRun=true', { image });
    expect(res.body.creativeUnitsCost).toBeGreaterThan(upscale.body.creativeUnitsCost);
    expect(res.body).toEqual({ creativeUnitsCost: expect.any(Number), creativeUnitsDiscount: expect.any(Number) });
    expect(await state()).toEqual(before);
  });

  // It ended `failure` in a fresh-clone run (test files at once on one broker): another deployment's
  // runner took this run's work request, could not find its input asset and reported the run failed.
  // The neighbour here is that other deployment.
  it('runs both steps as child jobs, charged once, the output an asset with lineage to the input', async () => {
    const id = await workflow(UPSCALE_THEN_PIXELATE);
    const image = await harness.uploadAsset(tenant);
    const usedBefore = await used(tenant);
    const price = (await call('PUT', `/v1/workflows/${id}/run?dryRun=true`, { inputs: { image, grid: 16 } })).body;
    const started = await ok('PUT', `/v1/workflows/${id}/run`, { inputs: { image, grid: 16 } });
    expect(started).toMatchObject({ workflow: { id }, job: { jobType: 'workflow' }, creativeUnitsCost: price.creativeUnitsCost });

    const run = await finalJob(started.job.jobId);
    await expectEnded(run, 'success');
    // The other deployment on the broker saw the work request and left it alone.
    expect(await neighbour.db.query('SELECT job_id FROM generation.workflow_runs')).toEqual([]);
    const steps = run.metadata.output.steps as { id: string; jobId: string; status: string; assetIds: string[] }[];
    expect(steps.map((s) => [s.id, s.status])).toEqual([['upscale', 'success'], ['pixelate', 'success']]);
    const [upscaled, pixelated] = [steps[0].assetIds[0], steps[1].assetIds[0]];
    expect(run.metadata.assetIds).toEqual([pixelated]);
    expect(run.metadata.flow?.map((n) => [n.id, n.status, n.jobId, n.assetIds])).toEqual(steps.map((s) => [s.id, 'success', s.jobId, s.assetIds]));
    // Each step is a job of its own, of its mode, succeeded, charged nothing.
    for (const step of steps) {
      expect(await job(step.jobId)).toMatchObject({ status: 'success', jobType: step.id });
      expect(await movements(step.jobId)).toEqual([]);
    }
    expect(await movements(run.jobId)).toEqual([{ kind: 'charge', units: price.creativeUnitsCost, reason: null }]);
    expect((await used(tenant)) - usedBefore).toBe(price.creativeUnitsCost);

    const output = await asset(pixelated);
    expect(output.metadata).toMatchObject({ parentId: upscaled, rootParentId: image });
    expect((await asset(upscaled)).metadata).toMatchObject({ parentId: image });
    // The run's job sends the lifecycle webhooks of any generation.
    expect((await webhooksOf(run.jobId, 2)).map((e) => [e.type, e.data.jobType])).toEqual([
      ['generation.created', 'workflow'],
      ['generation.completed', 'workflow'],
    ]);
  });

  it('fails the run when a step fails, skips the steps after it and refunds what did not run', async () => {
    const id = await workflow({
      name: 'three steps, the middle one without an engine',
      description: '',
      inputs: IMAGE_INPUT,
      flow: [
        { id: 'pixelate', type: 'pixelate', inputs: [fromWorkflow, ...PIXELATE_PARAMS] },
        { id: 'cutout', type: 'remove-background', inputs: [from('pixelate')] },
        { id: 'upscale', type: 'upscale', inputs: [from('cutout')] },
      ],
    });
    const image = await harness.uploadAsset(tenant);
    const pixelatePrice = (await call('POST', '/v1/generate/pixelate?dryRun=true', { image, pixelGridSize: 32, removeNoise: true })).body.creativeUnitsCost as number;
    const usedBefore = await used(tenant);
    const started = await ok('PUT', `/v1/workflows/${id}/run`, { inputs: { image } });
    const charged = started.creativeUnitsCost as number;
    expect(charged).toBeGreaterThan(pixelatePrice);

    const run = await finalJob(started.job.jobId);
    await expectEnded(run, 'failure');
    expect(run.metadata.output.errorMessage).toMatch(/^step cutout failed: /);
    const steps = await harness.db.query<{ step_id: string; status: string; units: number }>(
      'SELECT step_id, status, units FROM generation.workflow_run_steps WHERE job_id = $1 ORDER BY position',
      [run.jobId],
    );
    expect(steps.map((s) => [s.step_id, s.status])).toEqual([['pixelate', 'success'], ['cutout', 'failure'], ['upscale', 'skipped']]);
    expect(steps[0].units).toBe(pixelatePrice);
    // The ledger: the run charged once, then given back all but what pixelate (the step that ran) cost.
    await waitFor(async () => (await movements(run.jobId)).length === 2 || undefined, { timeoutMs: 10_000, what: 'the refund' });
    expect(await movements(run.jobId)).toEqual([
      { kind: 'charge', units: charged, reason: null },
      { kind: 'refund', units: charged - pixelatePrice, reason: 'failure' },
    ]);
    expect((await used(tenant)) - usedBefore).toBe(pixelatePrice);
    expect((await webhooksOf(run.jobId, 2)).map((e) => e.type)).toEqual(['generation.created', 'generation.failed']);
  });

  it('cancel stops every running step (two in parallel) and skips the rest', async () => {
    const id = await workflow({
      name: 'two parallel vectorizations, then an upscale',
      description: '',
      inputs: IMAGE_INPUT,
      flow: [
        { id: 'left', type: 'vectorize', inputs: [fromWorkflow] },
        { id: 'right', type: 'vectorize', inputs: [fromWorkflow] },
        { id: 'upscale', type: 'upscale', inputs: [from('left')] },
      ],
    });
    const image = await harness.uploadAsset(tenant);
    const started = await ok('PUT', `/v1/workflows/${id}/run`, { inputs: { image } });
    const runJobId = started.job.jobId as string;
    const children = await waitFor(async () => {
      const rows = await harness.db.query<{ step_id: string; child_job_id: string | null }>(
        "SELECT step_id, child_job_id FROM generation.workflow_run_steps WHERE job_id = $1 AND status = 'processing' ORDER BY position",
        [runJobId],
      );
      return rows.length === 2 ? rows.map((r) => r.child_job_id!) : undefined;
    }, { timeoutMs: 30_000, what: 'both vectorize steps running' });
    // Both run at once: the second did not wait for the first.
    for (const child of children) expect((await job(child)).status).not.toMatch(/success|failure|canceled/);

    const canceled = await ok('POST', `/v1/jobs/${runJobId}/action`, { action: 'cancel' });
    expect(canceled.job.status).toBe('canceled');
    for (const child of children) expect((await finalJob(child)).status).toBe('canceled');
    const steps = await harness.db.query<{ step_id: string; status: string }>(
      'SELECT step_id, status FROM generation.workflow_run_steps WHERE job_id = $1 ORDER BY position',
      [runJobId],
    );
    expect(steps.find((s) => s.step_id === 'upscale')?.status).toBe('skipped');
    expect((await job(runJobId)).status).toBe('canceled');
  });

  it('cancel after a step succeeded refunds the steps that had not, the finished one stays charged', async () => {
    const id = await workflow({
      name: 'upscale, then a vectorization that never ends',
      description: '',
      inputs: IMAGE_INPUT,
      flow: [
        { id: 'upscale', type: 'upscale', inputs: [fromWorkflow] },
        { id: 'vectorize', type: 'vectorize', inputs: [from('upscale')] },
      ],
    });
    const image = await harness.uploadAsset(tenant);
    const usedBefore = await used(tenant);
    const started = await ok('PUT', `/v1/workflows/${id}/run`, { inputs: { image } });
    const runJobId = started.job.jobId as string;
    const charged = started.creativeUnitsCost as number;
    // What a client polling the run sees: half done (upscale succeeded), the vectorization running.
    const halfDone = await waitFor(async () => {
      const current = await job(runJobId);
      return current.progress >= 0.5 || ['success', 'failure', 'canceled'].includes(current.status) ? current : undefined;
    }, { timeoutMs: 60_000, what: 'the run half done' });
    await expectEnded(halfDone, 'in-progress');
    expect(halfDone.progress).toBe(0.5);
    // Each step as it stands, on the run's job (upstream's metadata.flow): upscale done with its asset, vectorize running as its own job.
    const flow = await waitFor(async () => {
      const nodes = (await job(runJobId)).metadata.flow;
      return nodes?.[1]?.jobId ? nodes : undefined;
    }, { timeoutMs: 30_000, what: "the vectorize step's job on the run's flow" });
    expect(flow).toEqual([
      { id: 'upscale', type: 'upscale', modelId: '', status: 'success', jobId: expect.stringMatching(/^job_/), assetIds: [expect.stringMatching(/^asset_/)] },
      { id: 'vectorize', type: 'vectorize', modelId: '', status: 'processing', jobId: expect.stringMatching(/^job_/), assetIds: [] },
    ]);
    expect((await job(flow[1].jobId as string)).status).not.toMatch(/success|failure|canceled/);
    const units = await harness.db.query<{ step_id: string; status: string; units: number }>(
      'SELECT step_id, status, units FROM generation.workflow_run_steps WHERE job_id = $1 ORDER BY position',
      [runJobId],
    );
    expect(units.map((s) => s.step_id)).toEqual(['upscale', 'vectorize']);
    expect(units[0].status).toBe('success');
    const upscaleUnits = units[0].units;
    expect(upscaleUnits).toBeGreaterThan(0);
    expect(charged).toBeGreaterThan(upscaleUnits);

    const canceled = await ok('POST', `/v1/jobs/${runJobId}/action`, { action: 'cancel' });
    expect(canceled.job.status).toBe('canceled');
    expect(await movements(runJobId)).toEqual([
      { kind: 'charge', units: charged, reason: null },
      { kind: 'refund', units: charged - upscaleUnits, reason: 'canceled' },
    ]);
    expect((await used(tenant)) - usedBefore).toBe(upscaleUnits);
    expect((await finalJob(flow[1].jobId as string)).status).toBe('canceled');
  });

  it('refuses bad inputs with 400 naming the field, writing nothing', async () => {
    const id = await workflow(UPSCALE_THEN_PIXELATE);
    const image = await harness.uploadAsset(tenant);
    const before = await state();
    const refused = async (body: unknown, status = 400) => {
      const res = await call('PUT', `/v1/workflows/${id}/run`, body);
      expect(res.status).toBe(status);
      return Object.keys(res.body.infos?.fields ?? {}).concat(res.body.infos?.field ?? []);
    };
    expect(await refused({ inputs: {} })).toEqual(['inputs.image']);
    expect(await refused({ inputs: { image: 42 } })).toEqual(['inputs.image']);
    expect(await refused({ inputs: { image, colour: 'red' } })).toEqual(['inputs.colour']);
    expect(await refused({ inputs: { image, grid: 'eight' } })).toEqual(['inputs.grid']);
    // A value of the declared type the step's mode refuses: named by the run input it came from.
    expect(await refused({ inputs: { image, grid: 1000 } })).toEqual(['inputs.grid']);
    expect(await refused({ inputs: { image: 'asset_doesnotexist0' } }, 404)).toEqual(['inputs.image']);
    expect(await refused({ inputs: { image: await harness.uploadAsset(other) } }, 404)).toEqual(['inputs.image']);
    expect(await refused({ inputs: 'image' })).toEqual(['inputs']);
    expect(await state()).toEqual(before);
  });

  it("answers 404 for another project's workflow and 400 for a malformed id", async () => {
    const id = await workflow(UPSCALE_THEN_PIXELATE);
    const image = await harness.uploadAsset(other);
    const before = await harness.countJobs(other.projectId);
    const foreign = await call('PUT', `/v1/workflows/${id}/run`, { inputs: { image } }, other);
    expect(foreign.status).toBe(404);
    const malformed = await call('PUT', '/v1/workflows/not-a-workflow/run', { inputs: { image } }, other);
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.infos.fields)).toEqual(['workflowId']);
    expect(await harness.countJobs(other.projectId)).toBe(before);
  });
});
