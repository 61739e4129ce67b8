import { FakeComfyui, waitFor, WebhookReceiver, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { comfyBackendsFile } from './support/comfyui-backends';
import { startBackendSuite, type BackendSuite } from './support/backend-suite';
import type { InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// Generation through a ComfyUI backend, end to end: the generate route, the job, the worker
// submitting to the (fake) ComfyUI, assets holding its bytes, webhooks — and what goes wrong.
describe('inference-worker: a ComfyUI backend', () => {
  let fake: FakeComfyui;
  let suite: BackendSuite;
  let harness: InferenceHarness;
  let hooks: WebhookReceiver;
  let tenant: Tenant;

  beforeAll(async () => {
    fake = await FakeComfyui.start({ stepDelayMs: 25 });
    ({ harness, hooks, tenant } = suite = await startBackendSuite({
      INFERENCE_BACKENDS_FILE: comfyBackendsFile(fake.url),
      COMFY_TEST_TOKEN: 'tok_test',
      INFERENCE_MAX_ATTEMPTS: '2',
    }));
  });
  afterEach(() => fake.fail(undefined));
  afterAll(async () => {
    await suite?.close();
    await fake?.close();
  });

  const usage = () => suite.usedUnits();
  const job = (jobId: string) => suite.job(jobId);
  const submitOf = (jobId: string) =>
    waitFor(() => fake.submits.find((s) => (s.extraData.genasset as { jobId?: string }).jobId === jobId), {
      what: `the job ${jobId} to reach ComfyUI`,
    });

  it('txt2img: the assets hold the backend\'s bytes and say where they came from; generation.completed goes out; /readyz shows the backend', async () => {
    const endpoint = await harness.request('POST', `/v1/projects/${tenant.projectId}/webhook-endpoints`, {
      auth: tenant.auth.projectAdmin,
      body: { url: hooks.url, enabledEvents: ['generation.completed'] },
    });
    expect(endpoint.status).toBe(200);
    const ready = await harness.request('GET', '/readyz');
    expect(ready.body.checks['backend:gpu1']).toBe('ok');

    const body = await harness.generate(tenant, 'txt2img', {
      modelId: 'sd15',
      prompt: 'a lighthouse at dusk',
      seed: 77,
      numSamples: 2,
      width: 128,
      height: 64,
    });
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('success');
    expect(done.metadata.output).toMatchObject({ engine: 'comfyui', backend: 'gpu1', seed: 77 });
    const submit = await submitOf(done.jobId);
    expect(submit.graph['6'].inputs.text).toBe('a lighthouse at dusk');
    expect(submit.graph['5'].inputs).toEqual({ width: 128, height: 64, batch_size: 2 });

    const assetIds = done.metadata.assetIds as string[];
    expect(assetIds).toHaveLength(2);
    const images = fake.history(submit.promptId)!.outputs['9'].images;
    for (const [i, assetId] of assetIds.entries()) {
      const bytes = await harness.assetBytes(tenant, assetId);
      expect(bytes.equals(fake.files.get(`output/${images[i].subfolder}/${images[i].filename}`)!)).toBe(true);
      const asset = await harness.asset(tenant, assetId);
      expect(asset.metadata).toMatchObject({
        type: 'inference-txt2img',
        engine: 'comfyui',
        backend: 'gpu1',
        backendModel: 'sd15.safetensors',
        seed: '77',
        workflow: 'txt2img.json (built-in)',
        promptId: submit.promptId,
      });
    }
    const [delivery] = await hooks.waitForRequests(1, 30_000);
    const event = verifyEvent(
      delivery.rawBody,
      delivery.headers['x-service-signature'] as string,
      endpoint.body.webhookEndpoint.secret,
    );
    expect(event).toMatchObject({ type: 'generation.completed', data: { jobId: done.jobId } });
  });

  it('reports the backend\'s progress as the job\'s, and carries on through /history when the websocket drops', async () => {
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'x', numInferenceSteps: 80 });
    const jobId = body.job.jobId as string;
    const seen = await waitFor(
      async () => {
        const j = await job(jobId);
        return j.status === 'in-progress' && j.progress > 0.2 && j.progress < 0.9 ? j.progress : undefined;
      },
      { what: 'progress from the backend', intervalMs: 50 },
    );
    expect(seen).toBeGreaterThan(0.2);
    expect((await harness.finalJob(tenant, jobId)).status).toBe('success');

    fake.fail('drop-socket');
    const dropped = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'y', numInferenceSteps: 30 });
    const done = await harness.finalJob(tenant, dropped.job.jobId);
    expect(done.status).toBe('success');
    expect(fake.submits.filter((s) => (s.extraData.genasset as { jobId: string }).jobId === done.jobId)).toHaveLength(1);
  });

  it('a cancel reaches the backend: the running prompt is interrupted, the units come back', async () => {
    fake.fail('never-ends');
    const before = await usage();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'x', numInferenceSteps: 2 });
    const jobId = body.job.jobId as string;
    const submit = await submitOf(jobId);
    await waitFor(() => fake.queue.running.includes(submit.promptId), { what: 'the prompt to run' });
    const cancel = await harness.request('POST', `/v1/jobs/${jobId}/action`, {
      auth: tenant.auth.projectMember,
      body: { action: 'cancel' },
    });
    expect(cancel.status).toBe(200);
    await waitFor(() => fake.interrupts.includes(submit.promptId), { what: 'POST /interrupt for the prompt' });
    await waitFor(() => fake.history(submit.promptId)?.status.status_str === 'error', { what: 'the prompt to stop' });
    await waitFor(async () => (await usage()) === before, { what: 'the refund' });
    expect((await harness.finalJob(tenant, jobId)).status).toBe('canceled');
  });

  it.each([
    ['http-5xx', 'txt2img failed after 2 attempts: the comfyui backend gpu1 failed (POST /prompt: HTTP 500: 500 Internal Server Error Server got itself in trouble)'],
    ['malformed', 'the comfyui backend gpu1 answered POST /prompt with an invalid body: expected JSON'],
    ['down', 'txt2img failed after 2 attempts: the comfyui backend gpu1 could not be reached'],
    ['lose-job', /^the comfyui backend gpu1 lost the job: prompt [0-9a-f-]{36} is neither in its queue nor in its history/],
  ] as const)('a backend %s fails the job with a readable reason and refunds its units', async (mode, reason) => {
    fake.fail(mode);
    const before = await usage();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'x', numInferenceSteps: 10 });
    expect(await usage()).toBe(before + (body.creativeUnitsCost as number));
    if (mode === 'down') {
      const ready = await harness.request('GET', '/readyz');
      expect({ status: ready.status, check: ready.body.checks['backend:gpu1'] }).toEqual({
        status: 503,
        check: 'the comfyui backend gpu1 could not be reached',
      });
    }
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('failure');
    expect(done.metadata.output.errorMessage).toMatch(reason);
    await waitFor(async () => (await usage()) === before, { what: 'the refund' });
  });
});
