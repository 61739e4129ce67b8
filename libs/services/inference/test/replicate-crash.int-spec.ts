import { FakeCog, FakeReplicate, waitFor, type SpawnedProcess, type Tenant } from '@genasset/testing';
import { paint, type InferenceHarness } from './support/inference-harness';
import { replicateBackendsFile, SDXL_VERSION } from './support/replicate-backends';
import { startCrashDrill, type CrashDrill } from './support/worker-process';

// Separate OS processes: SWC start-up of the worker twice on 2 cores.
jest.setTimeout(240_000);

/**
 * The worker as its own process, SIGKILLed while a Replicate prediction runs: the restarted worker
 * follows the stored prediction, or (only the intent stored) finds it by the submission its webhook
 * URL names — Replicate has no idempotency key — and Replicate sees exactly one prediction.
 */
describe('inference-worker process: killed mid-job on a Replicate backend', () => {
  let replicate: FakeReplicate;
  let cog: FakeCog;
  let drill: CrashDrill;
  let harness: InferenceHarness;
  let tenant: Tenant;
  let alive: SpawnedProcess;

  const worker = async (env: Record<string, string> = {}) =>
    (
      await drill.worker({
        INFERENCE_BACKENDS_FILE: replicateBackendsFile(
          { replicate: replicate.url, cog: cog.url, callback: 'https://genasset.example.com' },
          {
            // The fake answers from the test process, on two cores shared with other files: 2 s was a flake.
            timeouts: { request: '15s', job: '60s' },
            routes: ['txt2img', 'img2img', 'model-training'],
            models: { txt2img: `stability-ai/sdxl:${SDXL_VERSION}`, img2img: 'black-forest-labs/flux-dev', 'model-training': `ostris/flux-dev-lora-trainer:${'e4'.repeat(32)}` },
            destination: 'genasset-test/crash-styles',
          },
        ),
        REPLICATE_TEST_TOKEN: 'r8_test',
        ...env,
      })
    ).child;

  beforeAll(async () => {
    // 40 steps × 150 ms: a prediction runs 6 s, long enough to kill the worker in the middle of it.
    replicate = await FakeReplicate.start({ token: 'r8_test', steps: 40, stepMs: 150 });
    cog = await FakeCog.start();
    ({ harness, tenant } = drill = await startCrashDrill('r8crash'));
  });
  afterAll(async () => {
    await drill?.close();
    await replicate?.close();
    await cog?.close();
  });

  const row = async (jobId: string) =>
    (
      await harness.db.query<{ status: string; backend_submission: string | null; backend_handle: string | null }>(
        'SELECT status, backend_submission, backend_handle FROM inference.work_items WHERE job_id = $1',
        [jobId],
      )
    )[0];
  const predictionsOf = (prompt: string) => replicate.predictions.created.filter((p) => p.input.prompt === prompt);

  it('resumes the stored prediction after a restart: one prediction, the job succeeds with its outputs', async () => {
    alive = await worker();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'a crash test' });
    const jobId = body.job.jobId as string;
    const prediction = await waitFor(() => predictionsOf('a crash test')[0], { timeoutMs: 60_000, what: 'the prediction' });
    await waitFor(async () => (await row(jobId))?.backend_handle === prediction.id, { what: 'the handle to be stored' });
    expect(await alive.kill('SIGKILL')).toBeNull();

    alive = await worker({ INFERENCE_LEASE: '60s' });
    const done = await harness.finalJob(tenant, jobId, 120_000);
    expect({ status: done.status, error: done.metadata.output?.errorMessage }).toEqual({ status: 'success', error: undefined });
    expect(predictionsOf('a crash test')).toHaveLength(1);
    expect(await row(jobId)).toMatchObject({ status: 'done', backend_handle: prediction.id });
    expect((await harness.asset(tenant, done.metadata.assetIds[0])).metadata).toMatchObject({ backend: 'hosted', predictionId: prediction.id });
  });

  it('killed between creating the prediction and storing its id (only the intent stored): found by its webhook URL, not created again', async () => {
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'an intent' });
    const jobId = body.job.jobId as string;
    const prediction = await waitFor(() => predictionsOf('an intent')[0], { timeoutMs: 60_000, what: 'the prediction' });
    await waitFor(async () => (await row(jobId))?.backend_handle === prediction.id, { what: 'the handle to be stored' });
    expect(await alive.kill('SIGKILL')).toBeNull();
    // As if the worker had died before storing the id: the row holds the intent only.
    await harness.db.query('UPDATE inference.work_items SET backend_handle = NULL, lease_until = now() WHERE job_id = $1', [jobId]);
    const { backend_submission: submission } = await row(jobId);
    expect(prediction.webhook).toBe(`https://genasset.example.com/v1/backend-callbacks/hosted/${submission}`);

    alive = await worker({ INFERENCE_LEASE: '60s' });
    const done = await harness.finalJob(tenant, jobId, 120_000);
    expect({ status: done.status, error: done.metadata.output?.errorMessage }).toEqual({ status: 'success', error: undefined });
    expect(predictionsOf('an intent')).toHaveLength(1);
    expect(await row(jobId)).toMatchObject({ status: 'done', backend_submission: submission, backend_handle: prediction.id });
  });

  it('a Replicate training killed with only its intent stored is found by its webhook URL: one training, the model trained', async () => {
    const as = { auth: tenant.auth.projectMember };
    const created = await harness.request('POST', '/v1/models', { ...as, body: { name: 'Crash style', type: 'flux.1-lora', backend: 'hosted' } });
    const modelId = created.body.model.id as string;
    await harness.request('POST', `/v1/models/${modelId}/training-images`, {
      ...as,
      body: { assetId: await harness.upload(tenant, await paint(16, 16, (x) => [x * 10, 60, 90])) },
    });
    const train = await harness.request('PUT', `/v1/models/${modelId}/train`, { ...as, body: {} });
    expect(train.status).toBe(200);
    const jobId = train.body.job.jobId as string;
    const training = await waitFor(() => replicate.trainings.created.find((t) => t.destination === 'genasset-test/crash-styles'), {
      timeoutMs: 60_000,
      what: 'the training',
    });
    await waitFor(async () => (await row(jobId))?.backend_handle === `trainings/${training.id}`, { what: 'the handle to be stored' });
    expect(await alive.kill('SIGKILL')).toBeNull();
    await harness.db.query('UPDATE inference.work_items SET backend_handle = NULL, lease_until = now() WHERE job_id = $1', [jobId]);

    alive = await worker({ INFERENCE_LEASE: '60s' });
    const trained = await waitFor(
      async () => {
        const m = (await harness.request('GET', `/v1/models/${modelId}`, as)).body.model;
        return m.status === 'training' ? undefined : m;
      },
      { timeoutMs: 120_000, what: 'the model to be trained' },
    );
    expect(trained).toMatchObject({ status: 'trained', trainedVersion: replicate.versions.find((v) => v.startsWith('genasset-test/crash-styles:')) });
    expect(replicate.trainings.created.filter((t) => t.destination === 'genasset-test/crash-styles')).toHaveLength(1);
    expect(await row(jobId)).toMatchObject({ status: 'done', backend_handle: `trainings/${training.id}` });
  });
});
