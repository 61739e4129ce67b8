import sharp from 'sharp';
import { FakeCog, FakeReplicate, waitFor, WebhookReceiver, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { replicateBackendsFile, SDXL_VERSION } from './support/replicate-backends';
import { startBackendSuite, type BackendSuite } from './support/backend-suite';
import type { InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// Generation on hosted Replicate and on a Cog container, end to end: the generate routes, the job,
// the worker's predictions on the (fake) servers, assets holding their bytes, webhooks — and failures.
describe('inference-worker: Replicate and Cog backends', () => {
  let replicate: FakeReplicate;
  let cog: FakeCog;
  let suite: BackendSuite;
  let harness: InferenceHarness;
  let hooks: WebhookReceiver;
  let tenant: Tenant;

  beforeAll(async () => {
    replicate = await FakeReplicate.start({ token: 'r8_test', steps: 4, stepMs: 150 });
    cog = await FakeCog.start({ steps: 3, stepMs: 100 });
    ({ harness, hooks, tenant } = suite = await startBackendSuite({
      INFERENCE_BACKENDS_FILE: replicateBackendsFile({ replicate: replicate.url, cog: cog.url, callback: 'http://127.0.0.1:9/' }),
      REPLICATE_TEST_TOKEN: 'r8_test',
      INFERENCE_MAX_ATTEMPTS: '2',
      INFERENCE_RETRY_DELAY: '200ms',
      INFERENCE_PROGRESS_INTERVAL: '0',
    }));
  });
  afterEach(() => {
    replicate.fail(undefined);
    cog.fail(undefined);
  });
  afterAll(async () => {
    await suite?.close();
    await replicate?.close();
    await cog?.close();
  });

  const usage = () => suite.usedUnits();
  const job = (jobId: string) => suite.job(jobId);
  const predictionsOf = (prompt: string) => replicate.predictions.created.filter((p) => p.input.prompt === prompt);

  it('txt2img on Replicate: one prediction, polled to its end; the assets hold its bytes; generation.completed goes out', async () => {
    const endpoint = await harness.request('POST', `/v1/projects/${tenant.projectId}/webhook-endpoints`, {
      auth: tenant.auth.projectAdmin,
      body: { url: hooks.url, enabledEvents: ['generation.completed'] },
    });
    expect(endpoint.status).toBe(200);
    const ready = (await harness.request('GET', '/readyz')).body.checks;
    expect({ hosted: ready['backend:hosted'], cog1: ready['backend:cog1'] }).toEqual({ hosted: 'ok', cog1: 'ok' });

    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'a lighthouse', numSamples: 2, width: 96, height: 64, seed: 7 });
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('success');
    expect(done.metadata.output).toMatchObject({ engine: 'replicate', backend: 'hosted', seed: 7 });
    const [prediction] = predictionsOf('a lighthouse');
    expect(predictionsOf('a lighthouse')).toHaveLength(1);
    const create = replicate.requests.find((r) => r.method === 'POST' && r.path === '/v1/predictions')!;
    expect(create).toMatchObject({
      authorization: 'Bearer r8_test',
      body: {
        version: SDXL_VERSION,
        input: { prompt: 'a lighthouse', width: 96, height: 64, num_outputs: 2, seed: 7, scheduler: 'K_EULER' },
        webhook_events_filter: ['start', 'completed'],
      },
    });
    expect(prediction.webhook).toMatch(/^http:\/\/127\.0\.0\.1:9\/v1\/backend-callbacks\/hosted\/[0-9a-f-]{36}$/);
    const assetIds = done.metadata.assetIds as string[];
    expect(assetIds).toHaveLength(2);
    for (const [i, assetId] of assetIds.entries()) {
      const bytes = await harness.assetBytes(tenant, assetId);
      expect(replicate.predictions.images.some((image) => image.equals(bytes))).toBe(true);
      expect((await harness.asset(tenant, assetId)).metadata).toMatchObject({
        engine: 'replicate',
        backend: 'hosted',
        backendModel: `stability-ai/sdxl:${SDXL_VERSION}`,
        predictionId: prediction.id,
      });
      expect(i).toBeLessThan(2);
    }
    const [delivery] = await hooks.waitForRequests(1, 30_000);
    const event = verifyEvent(delivery.rawBody, delivery.headers['x-service-signature'] as string, endpoint.body.webhookEndpoint.secret);
    expect(event).toMatchObject({ type: 'generation.completed', data: { jobId: done.jobId } });
  });

  it('img2img on a model\'s latest version sends the picture as a data URL; progress comes from the logs', async () => {
    const image = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#208040' } }).png().toBuffer();
    const body = await harness.generate(tenant, 'img2img', { modelId: 'sd15', prompt: 'slow one', image: `data:image/png;base64,${image.toString('base64')}` });
    const jobId = body.job.jobId as string;
    const seen = await waitFor(async () => {
      const j = await job(jobId);
      return j.status === 'in-progress' && j.progress > 0.2 && j.progress < 0.95 ? j.progress : undefined;
    }, { what: 'progress from the prediction logs', intervalMs: 50 });
    expect(seen).toBeGreaterThan(0.2);
    expect((await harness.finalJob(tenant, jobId)).status).toBe('success');
    const create = replicate.requests.find((r) => r.path === '/v1/models/black-forest-labs/flux-dev/predictions')!;
    expect((create.body.input as { image: string }).image).toMatch(/^data:image\/png;base64,/);
  });

  it('upscale on Cog: PUT /predictions/{submission id}; the asset holds the data URL\'s bytes', async () => {
    const image = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } }).png().toBuffer();
    const body = await harness.generate(tenant, 'upscale', { image: `data:image/png;base64,${image.toString('base64')}` });
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('success');
    expect(done.metadata.output).toMatchObject({ engine: 'cog', backend: 'cog1' });
    const put = cog.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe(`/predictions/${put.body.id as string}`);
    expect((await harness.assetBytes(tenant, (done.metadata.assetIds as string[])[0])).equals(cog.predictions.images.at(-1)!)).toBe(true);
  });

  it('a cancel reaches Replicate: POST /predictions/{id}/cancel, the units come back', async () => {
    replicate.fail('never-ends');
    const before = await usage();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'never ends' });
    const jobId = body.job.jobId as string;
    const prediction = await waitFor(() => predictionsOf('never ends')[0], { what: 'the prediction' });
    const cancel = await harness.request('POST', `/v1/jobs/${jobId}/action`, { auth: tenant.auth.projectMember, body: { action: 'cancel' } });
    expect(cancel.status).toBe(200);
    await waitFor(() => replicate.predictions.canceled.includes(prediction.id), { what: 'the prediction canceled on Replicate' });
    await waitFor(async () => (await usage()) === before, { what: 'the refund' });
    expect((await harness.finalJob(tenant, jobId)).status).toBe('canceled');
  });

  it.each([
    ['prediction-fails', /^the replicate backend hosted failed prediction \w+: CUDA out of memory\. Tried to allocate 2\.00 GiB$/],
    ['http-4xx', /^the replicate backend hosted refused POST \/predictions \(HTTP 422: - input\.prompt: Does not match pattern\)$/],
    // The second attempt holds only an intent: it looks the submission up (GET /predictions) before submitting again.
    ['http-5xx', /^txt2img failed after 2 attempts: the replicate backend hosted failed \(GET \/predictions: HTTP 500: Internal server error\)$/],
    ['malformed', /^the replicate backend hosted answered POST \/predictions with an invalid body: expected JSON$/],
    ['down', /^txt2img failed after 2 attempts: the replicate backend hosted could not be reached$/],
  ] as const)('Replicate %s fails the job with a readable reason and refunds its units', async (mode, reason) => {
    replicate.fail(mode);
    const before = await usage();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: `fails ${mode}` });
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('failure');
    expect(done.metadata.output.errorMessage).toMatch(reason);
    await waitFor(async () => (await usage()) === before, { what: 'the refund' });
  });

  it('a Cog refusal (422) fails the job with the container\'s words', async () => {
    cog.fail('http-4xx');
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer();
    const body = await harness.generate(tenant, 'upscale', { image: `data:image/png;base64,${image.toString('base64')}` });
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('failure');
    expect(done.metadata.output.errorMessage).toMatch(/^the cog backend cog1 refused PUT \/predictions\/\{id\} \(HTTP 422: /);
  });
  const picture = async () =>
    `data:image/png;base64,${(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer()).toString('base64')}`;

  it('/readyz: a Cog container whose setup failed is not ready, and says so', async () => {
    cog.health = 'SETUP_FAILED';
    try {
      const ready = await harness.request('GET', '/readyz');
      expect({ status: ready.status, check: ready.body.checks['backend:cog1'] }).toEqual({ status: 503, check: 'the container is SETUP_FAILED' });
    } finally {
      cog.health = 'READY';
    }
  });

  it('a cancel reaches Cog: the held PUT is dropped and POST /predictions/{id}/cancel stops the prediction', async () => {
    cog.fail('never-ends');
    const body = await harness.generate(tenant, 'upscale', { image: await picture() });
    const jobId = body.job.jobId as string;
    const put = await waitFor(() => cog.requests.find((r) => r.method === 'PUT' && cog.predictions.all.get(r.body.id as string)?.status === 'processing'), {
      what: 'the prediction running on Cog',
    });
    const cancel = await harness.request('POST', `/v1/jobs/${jobId}/action`, { auth: tenant.auth.projectMember, body: { action: 'cancel' } });
    expect(cancel.status).toBe(200);
    await waitFor(() => cog.predictions.canceled.includes(put.body.id as string), { what: 'the prediction canceled on Cog' });
    expect((await harness.finalJob(tenant, jobId)).status).toBe('canceled');
  });

  it.each([
    ['http-5xx', /^upscale failed after 2 attempts: the cog backend cog1 failed \(PUT \/predictions\/\{id\}: HTTP 500: Internal Server Error\)$/],
    ['malformed', /^the cog backend cog1 answered PUT \/predictions\/\{id\} with an invalid body: expected JSON$/],
    ['down', /^upscale failed after 2 attempts: the cog backend cog1 could not be reached$/],
    ['prediction-fails', /^the cog backend cog1 failed prediction [0-9a-f-]{36}: CUDA out of memory\. Tried to allocate 2\.00 GiB$/],
  ] as const)('Cog %s fails the job with a readable reason and refunds its units', async (mode, reason) => {
    cog.fail(mode);
    const before = await usage();
    const body = await harness.generate(tenant, 'upscale', { image: await picture() });
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('failure');
    expect(done.metadata.output.errorMessage).toMatch(reason);
    await waitFor(async () => (await usage()) === before, { what: 'the refund' });
  });
});
