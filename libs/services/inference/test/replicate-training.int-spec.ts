import { FakeCog, FakeReplicate, unzip, waitFor, type Tenant } from '@genasset/testing';
import { replicateBackendsFile, SDXL_VERSION } from './support/replicate-backends';
import { paint, startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

const TRAINER = `ostris/flux-dev-lora-trainer:${'e4'.repeat(32)}`;

// PUT /v1/models/{id}/train on a model whose registry entry names a Replicate backend: a Replicate
// training on the (fake) API, followed to its end; the model records the version it made, and a
// generation naming the model is a prediction of that version. A failed training fails the model.
describe('models on a Replicate backend: trainings', () => {
  let replicate: FakeReplicate;
  let cog: FakeCog;
  let harness: InferenceHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    replicate = await FakeReplicate.start({ token: 'r8_test', steps: 3, stepMs: 150 });
    cog = await FakeCog.start();
    harness = await startInferenceHarness({
      env: {
        INFERENCE_BACKENDS_FILE: replicateBackendsFile(
          { replicate: replicate.url, cog: cog.url, callback: 'http://127.0.0.1:9/' },
          {
            routes: ['txt2img', 'model-training'],
            models: { txt2img: `stability-ai/sdxl:${SDXL_VERSION}`, 'model-training': TRAINER },
            inputs: { 'model-training': { autocaption: false } },
            destination: 'genasset-test/house-style',
          },
        ),
        REPLICATE_TEST_TOKEN: 'r8_test',
        INFERENCE_PREVIEW: 'off',
        INFERENCE_PROGRESS_INTERVAL: '0',
      },
    });
    tenant = await harness.tenant();
  });
  afterEach(() => replicate.fail(undefined));
  afterAll(async () => {
    await harness?.close();
    await replicate?.close();
    await cog?.close();
  });

  const as = { auth: () => tenant.auth.projectMember };
  const request = (method: string, path: string, body?: unknown) =>
    harness.request(method, path, { auth: as.auth(), ...(body !== undefined ? { body } : {}) });
  const model = async (id: string) => (await request('GET', `/v1/models/${id}`)).body.model;
  const usage = async () =>
    (await harness.request('GET', `/v1/teams/${tenant.teamId}/usage`, { auth: tenant.auth.teamAdmin })).body.usedCreativeUnits as number;
  const modelOnReplicate = async (name: string, images: number) => {
    const created = await request('POST', '/v1/models', { name, type: 'flux.1-lora', backend: 'hosted' });
    expect(created.status).toBe(200);
    expect(created.body.model.backend).toBe('hosted');
    for (let i = 0; i < images; i++) {
      const png = await paint(24, 24, (x) => [40 * i + x, 90, 160]);
      expect((await request('POST', `/v1/models/${created.body.model.id}/training-images`, { assetId: await harness.upload(tenant, png) })).status).toBe(200);
    }
    return created.body.model.id as string;
  };
  const finalModel = (id: string) =>
    waitFor(async () => {
      const m = await model(id);
      return m.status === 'training' ? undefined : m;
    }, { timeoutMs: 60_000, what: `model ${id} to finish training` });

  it('trains on Replicate, records the version the training made, and a generation naming the model runs that version', async () => {
    const before = await usage();
    const id = await modelOnReplicate('House style', 2);
    const train = await request('PUT', `/v1/models/${id}/train`, { parameters: { maxTrainSteps: 500, conceptPrompt: 'HSTYLE' } });
    expect(train.status).toBe(200);
    expect(train.body.job).toMatchObject({ jobType: 'model-training' });

    const trained = await finalModel(id);
    expect(trained.status).toBe('trained');
    // One training, on the trainer's pinned version, towards the destination; the images went up as one zip.
    expect(replicate.trainings.created).toHaveLength(1);
    const training = replicate.trainings.created[0];
    expect(training).toMatchObject({ model: 'ostris/flux-dev-lora-trainer', version: 'e4'.repeat(32), destination: 'genasset-test/house-style' });
    expect(training.input).toMatchObject({ steps: 500, trigger_word: 'HSTYLE', autocaption: false });
    const uploadId = String(training.input.input_images).split('/').pop()!;
    const upload = replicate.uploads.get(uploadId)!;
    expect(upload.type).toBe('application/zip');
    expect(await unzip(upload.bytes)).toHaveLength(2);
    expect(new URL(training.webhook!).pathname).toMatch(/^\/v1\/backend-callbacks\/hosted\/[0-9a-f-]{36}$/);
    expect(trained.trainedVersion).toBe(replicate.versions[0]);
    expect(trained.trainingProgress.progress).toBe(1);
    const job = await harness.finalJob(tenant, train.body.job.jobId);
    expect(job.status).toBe('success');

    // A generation naming the model: a prediction of the trained version, not the route's model.
    const generated = await harness.generate(tenant, 'txt2img', { modelId: id, prompt: 'a lighthouse in house style', width: 64, height: 64 });
    const done = await harness.finalJob(tenant, generated.job.jobId);
    expect(done.status).toBe('success');
    const prediction = replicate.predictions.created.find((p) => p.input.prompt === 'a lighthouse in house style')!;
    expect(prediction.version).toBe(replicate.versions[0].split(':')[1]);
    const asset = await harness.asset(tenant, done.metadata.assetIds[0]);
    expect(asset.metadata).toMatchObject({ engine: 'replicate', backend: 'hosted', backendModel: replicate.versions[0] });
    // Trainings are free; the generation costs what any txt2img does.
    expect(await usage()).toBeGreaterThanOrEqual(before);
  });

  it('a failed training fails the model with Replicate’s reason and charges nothing', async () => {
    const id = await modelOnReplicate('Doomed', 1);
    const before = await usage();
    replicate.fail('prediction-fails');
    const train = await request('PUT', `/v1/models/${id}/train`, {});
    expect(train.status).toBe(200);
    const failed = await finalModel(id);
    expect(failed.status).toBe('failed');
    expect(failed.trainedVersion).toBeUndefined();
    const job = await harness.finalJob(tenant, train.body.job.jobId);
    expect(job).toMatchObject({ status: 'failure' });
    expect(job.metadata.output.errorMessage).toMatch(/the replicate backend hosted failed training \w+: CUDA out of memory/);
    expect(await usage()).toBe(before);
    // A generation naming the untrained model still runs on its backend, with the route's model.
    replicate.fail(undefined);
    const generated = await harness.generate(tenant, 'txt2img', { modelId: id, prompt: 'untrained', width: 64, height: 64 });
    expect((await harness.finalJob(tenant, generated.job.jobId)).status).toBe('success');
    expect(replicate.predictions.created.find((p) => p.input.prompt === 'untrained')?.version).toBe(SDXL_VERSION);
  });

  it('a model naming a backend that does not train fails its training saying so', async () => {
    const created = await request('POST', '/v1/models', { name: 'Elsewhere', type: 'flux.1-lora', backend: 'cog1' });
    const id = created.body.model.id as string;
    await request('POST', `/v1/models/${id}/training-images`, { assetId: await harness.upload(tenant, await paint(8, 8, () => [1, 2, 3])) });
    const train = await request('PUT', `/v1/models/${id}/train`, {});
    expect((await finalModel(id)).status).toBe('failed');
    const job = await harness.finalJob(tenant, train.body.job.jobId);
    expect(job.metadata.output.errorMessage).toBe(
      'the model names the backend cog1, which does not serve model-training (its routes in INFERENCE_BACKENDS_FILE)',
    );
  });

  it('canceling the model’s training cancels the Replicate training', async () => {
    const id = await modelOnReplicate('Changed my mind', 1);
    replicate.fail('never-ends');
    const train = await request('PUT', `/v1/models/${id}/train`, {});
    const training = await waitFor(
      () => replicate.trainings.created.find((t) => t.status === 'processing' && !replicate.trainings.canceled.includes(t.id)),
      { timeoutMs: 30_000, what: 'the training to run' },
    );
    const canceled = await request('POST', `/v1/models/${id}/train/action`, { action: 'cancel' });
    expect(canceled.status).toBe(200);
    expect(canceled.body.model.status).toBe('training-canceled');
    await waitFor(() => replicate.trainings.canceled.includes(training.id), { timeoutMs: 30_000, what: 'POST /v1/trainings/{id}/cancel' });
    expect(training.status).toBe('canceled');
    expect((await harness.finalJob(tenant, train.body.job.jobId)).status).toBe('canceled');
  });
});
