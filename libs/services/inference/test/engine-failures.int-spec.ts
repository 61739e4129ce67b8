import { S3ObjectStore } from '@genasset/storage';
import { testServices, waitFor, WebhookReceiver, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { startBackendSuite, type BackendSuite } from './support/backend-suite';
import { paint, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

/** The largest output file the http engine takes here (INFERENCE_HTTP_MAX_OUTPUT_BYTES' least). */
const LIMIT = 1024;

// A mode whose engine fails, or that has none, fails its job with a reason the client reads;
// the units are refunded and the generation.failed webhook goes out.
describe('inference-worker: failing and missing engines', () => {
  let suite: BackendSuite;
  let harness: InferenceHarness;
  let server: WebhookReceiver;
  let hooks: WebhookReceiver;
  let tenant: Tenant;
  let store: S3ObjectStore;

  beforeAll(async () => {
    const png = await paint(8, 8, () => [200, 40, 40]);
    // The "inference server": answers txt2img with a 500 (an image over the output limit when the
    // prompt asks for it) and never answers controlnet.
    server = await WebhookReceiver.start({
      path: '/infer',
      respondWith: (request) => {
        const { mode, input } = JSON.parse(request.rawBody.toString()) as { mode: string; input: { prompt?: string } };
        if (mode === 'controlnet') return { status: 200, hang: true };
        // A PNG by its first bytes, past the limit, after one that fits: the job stores neither.
        if (input.prompt === 'too large')
          return { status: 200, body: { outputs: [png, Buffer.concat([png, Buffer.alloc(LIMIT)])].map((bytes) => ({ data: bytes.toString('base64'), mimeType: 'image/png' })) } };
        // Half a surrogate pair in a result: PostgreSQL's jsonb cannot store it.
        if (mode === 'caption')
          return { status: 200, body: { outputs: [], output: { captions: ['a \ud800 cat'] } } };
        return { status: 500, body: { error: 'GPU on fire' } };
      },
    });
    ({ harness, hooks, tenant } = suite = await startBackendSuite({
      INFERENCE_ENGINES: 'txt2img=http,controlnet=http,caption=http',
      INFERENCE_HTTP_URL: server.url,
      INFERENCE_HTTP_RETRIES: '1',
      INFERENCE_HTTP_RETRY_DELAY: '50ms',
      INFERENCE_HTTP_MAX_OUTPUT_BYTES: String(LIMIT),
    }));
    store = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
  });
  afterAll(async () => {
    await suite?.close();
    await store?.close();
    await server?.close();
  });

  const usage = () => suite.usedUnits();

  it('an http engine answering 500 fails the job with a readable reason, refunds the units and sends generation.failed', async () => {
    const endpoint = await harness.request('POST', `/v1/projects/${tenant.projectId}/webhook-endpoints`, {
      auth: tenant.auth.projectAdmin,
      body: { url: hooks.url, enabledEvents: ['generation.failed'] },
    });
    expect(endpoint.status).toBe(200);

    const body = await harness.generate(tenant, 'txt2img', {
      modelId: 'base-http',
      prompt: 'a storm',
      width: 512,
      height: 512,
    });
    expect(body.creativeUnitsCost).toBeGreaterThan(0);
    expect(await usage()).toBe(body.creativeUnitsCost);

    const job = await harness.finalJob(tenant, body.job.jobId);
    expect(job.status).toBe('failure');
    expect(job.metadata.output).toEqual({
      errorMessage: 'the inference server failed (HTTP 500: GPU on fire) after 2 attempts',
    });
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(server.requests[0].rawBody.toString())).toMatchObject({
      mode: 'txt2img',
      modelId: 'base-http',
      input: { prompt: 'a storm' },
    });

    await waitFor(async () => await usage() === 0, { what: 'the refund' });

    const [delivery] = await hooks.waitForRequests(1, 30_000);
    const event = verifyEvent(
      delivery.rawBody,
      delivery.headers['x-service-signature'] as string,
      endpoint.body.webhookEndpoint.secret,
    );
    expect(event).toMatchObject({ type: 'generation.failed', data: { jobId: job.jobId } });
  });

  it('an http engine output over INFERENCE_HTTP_MAX_OUTPUT_BYTES fails the job naming the limit and leaves no object behind', async () => {
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'base-http', prompt: 'too large', width: 512, height: 512 });
    const job = await harness.finalJob(tenant, body.job.jobId);
    expect(job.status).toBe('failure');
    const size = (await paint(8, 8, () => [200, 40, 40])).length + LIMIT;
    expect(job.metadata.output).toEqual({
      errorMessage: `the inference server produced output 2 of ${size} bytes; this worker takes at most ${LIMIT} (INFERENCE_HTTP_MAX_OUTPUT_BYTES)`,
    });
    const keys: string[] = [];
    for await (const key of store.list(`jobs/${job.jobId}/`)) keys.push(key);
    expect(keys).toEqual([]);
    await waitFor(async () => (await usage()) === 0, { what: 'the refund' });
  });

  it('a result the database cannot store fails the job with a readable reason instead of retrying it forever', async () => {
    const image = await harness.upload(tenant, await paint(16, 16, (x, y) => [x * 16, y * 16, 0]));
    const body = await harness.generate(tenant, 'caption', { images: [image] });
    const job = await harness.finalJob(tenant, body.job.jobId, 30_000);
    expect(job.status).toBe('failure');
    expect(job.metadata.output).toEqual({
      errorMessage:
        "the http engine's result cannot be stored: output.captions.0 must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates",
    });
    await waitFor(async () => await usage() === 0, { what: 'the refund' });
  });

  it('a mode with no engine configured fails at once, saying what to configure', async () => {
    const input = await harness.upload(tenant, await paint(16, 16, (x, y) => [x * 16, y * 16, 0]));
    const body = await harness.generate(tenant, 'img2img', {
      modelId: 'base-none',
      prompt: 'x',
      image: input,
    });
    const job = await harness.finalJob(tenant, body.job.jobId);
    expect(job.status).toBe('failure');
    expect(job.metadata.output).toEqual({
      errorMessage:
        'mode img2img has no engine configured on this server (operators: set INFERENCE_ENGINES, e.g. img2img=http with INFERENCE_HTTP_URL)',
    });
    await waitFor(async () => await usage() === 0, { what: 'the refund' });
  });

  it('a cancel stops the running engine: nothing is reported, the units come back', async () => {
    const control = await harness.upload(tenant, await paint(16, 16, (x) => [x * 16, 0, 0]));
    const body = await harness.generate(tenant, 'controlnet', {
      modelId: 'base-http',
      prompt: 'x',
      modality: 'canny',
      controlImageId: control,
    });
    const jobId = body.job.jobId as string;
    await waitFor(() => server.requests.some((r) => r.rawBody.toString().includes(jobId)), {
      what: 'the engine to call the server',
    });
    const status = async () =>
      (
        await harness.db.query<{ status: string }>(
          'SELECT status FROM inference.work_items WHERE job_id = $1',
          [jobId],
        )
      )[0]?.status;
    expect(await status()).toBe('running');

    const cancel = await harness.request('POST', `/v1/jobs/${jobId}/action`, {
      auth: tenant.auth.projectMember,
      body: { action: 'cancel' },
    });
    expect(cancel.status).toBe(200);
    await waitFor(async () => (await status()) === 'canceled', { what: 'the work item to be canceled' });
    await waitFor(async () => await usage() === 0, { what: 'the refund' });
    const job = await harness.finalJob(tenant, jobId);
    expect(job).toMatchObject({ status: 'canceled', metadata: { assetIds: [] } });
  });

  it('image modes still run in the image engine', async () => {
    const input = await harness.upload(tenant, await paint(16, 16, (x, y) => [x * 16, y * 16, 0]));
    const body = await harness.generate(tenant, 'upscale', { image: input, scalingFactor: 4 });
    const job = await harness.finalJob(tenant, body.job.jobId);
    expect({ status: job.status, output: job.metadata.output }).toMatchObject({
      status: 'success',
      output: { engine: 'image' },
    });
  });
});
