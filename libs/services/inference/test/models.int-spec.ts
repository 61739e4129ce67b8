import sharp from 'sharp';
import { S3ObjectStore } from '@genasset/storage';
import { testServices, unzip, waitFor, WebhookReceiver, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { paint, startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(240_000);

// The model registry end to end: generation-service's /v1/models routes, training and export jobs
// through job-service, the inference worker's built-in colour trainer and exporter, and the
// model.training.* / model.download.* webhooks a receiver gets.
describe('models: registry, training, export, custom generation', () => {
  let harness: InferenceHarness;
  let hooks: WebhookReceiver;
  let owner: Tenant;
  let other: Tenant;
  let secret: string;

  beforeAll(async () => {
    hooks = await WebhookReceiver.start();
    harness = await startInferenceHarness({ webhooks: true, env: { INFERENCE_TRAINER_STEP_DELAY: '250ms' } });
    owner = await harness.tenant();
    other = await harness.tenant();
    const endpoint = await harness.request('POST', `/v1/projects/${owner.projectId}/webhook-endpoints`, {
      auth: owner.auth.projectAdmin,
      body: {
        url: hooks.url,
        enabledEvents: [
          'model.training.started',
          'model.training.completed',
          'model.training.failed',
          'model.training.cancelled',
          'model.download.created',
          'model.download.completed',
        ],
      },
    });
    expect(endpoint.status).toBe(200);
    secret = endpoint.body.webhookEndpoint.secret;
  });
  afterAll(async () => {
    await harness?.close();
    await hooks?.close();
  });

  const as = (tenant: Tenant) => ({ auth: tenant.auth.projectMember });
  const createModel = async (tenant: Tenant, body: Record<string, unknown>) => {
    const res = await harness.request('POST', '/v1/models', { ...as(tenant), body });
    expect(res.status).toBe(200);
    return res.body.model as Record<string, any>;
  };
  const events = (type: string) =>
    hooks.requests
      .map((r) => verifyEvent(r.rawBody, r.headers['x-service-signature'] as string, secret))
      .filter((e) => e.type === type) as { type: string; data: Record<string, any> }[];
  const solid = (r: number, g: number, b: number) => paint(32, 32, (x, y) => [r + ((x + y) % 4), g, b]);
  const meanRgb = async (png: Buffer) => (await sharp(png).stats()).channels.slice(0, 3).map((c) => c.mean);
  const model = async (tenant: Tenant, id: string) =>
    (await harness.request('GET', `/v1/models/${id}`, as(tenant))).body.model;

  it('CRUD and visibility: private models are the project’s, public ones readable by every team', async () => {
    const created = await createModel(owner, { name: 'Mine', tags: ['a'] });
    expect(created).toMatchObject({
      name: 'Mine',
      type: 'custom',
      status: 'new',
      privacy: 'private',
      tags: ['a'],
      collectionIds: [],
      trainingImages: [],
      trainingImagesNumber: 0,
      custom: true,
      ownerId: owner.projectId,
    });
    expect((await harness.request('GET', `/v1/models/${created.id}`, as(other))).status).toBe(404);
    expect(
      (await harness.request('PUT', `/v1/models/${created.id}`, { ...as(other), body: { name: 'x' } }))
        .status,
    ).toBe(404);

    const shared = await createModel(owner, { name: 'Shared', privacy: 'public' });
    expect((await harness.request('GET', `/v1/models/${shared.id}`, as(other))).body.model.name).toBe(
      'Shared',
    );
    expect(
      (await harness.request('PUT', `/v1/models/${shared.id}`, { ...as(other), body: { name: 'x' } })).status,
    ).toBe(403);
    const publicList = await harness.request('GET', '/v1/models?privacy=public', as(other));
    expect(publicList.body.models.map((m: any) => m.id)).toContain(shared.id);
    expect(publicList.body.models.map((m: any) => m.id)).not.toContain(created.id);
    expect((await harness.request('GET', '/v1/models', as(other))).body.models).toEqual([]);

    const updated = await harness.request('PUT', `/v1/models/${created.id}`, {
      ...as(owner),
      body: { name: 'Renamed', shortDescription: 'd' },
    });
    expect(updated.body.model).toMatchObject({ name: 'Renamed', shortDescription: 'd' });
    const tags = await harness.request('PUT', `/v1/models/${created.id}/tags`, {
      ...as(owner),
      body: { add: ['b'], delete: ['a'] },
    });
    expect(tags.body).toEqual({ added: ['b'], deleted: ['a'] });

    const page1 = await harness.request('GET', '/v1/models?pageSize=1', as(owner));
    expect(page1.body.models).toHaveLength(1);
    const page2 = await harness.request(
      'GET',
      `/v1/models?pageSize=1&paginationToken=${page1.body.nextPaginationToken}`,
      as(owner),
    );
    expect(page2.body.models[0].id).not.toBe(page1.body.models[0].id);
    expect((await harness.request('GET', '/v1/models?pageSize=501', as(owner))).status).toBe(400);

    const asset = await harness.upload(owner, await solid(10, 200, 10));
    const add = await harness.request('POST', `/v1/models/${created.id}/training-images`, {
      ...as(owner),
      body: { assetId: asset, name: 'green.png' },
    });
    expect(add.status).toBe(200);
    expect(add.body.trainingImage).toMatchObject({ id: asset, name: 'green.png' });
    expect((await fetch(add.body.trainingImage.downloadUrl)).status).toBe(200);
    const foreign = await harness.upload(other, await solid(1, 2, 3));
    expect(
      (
        await harness.request('POST', `/v1/models/${created.id}/training-images`, {
          ...as(owner),
          body: { assetId: foreign },
        })
      ).status,
    ).toBe(404);
    // Inline (data URL): stored as an uploaded asset of the project first.
    const inline = await harness.request('POST', `/v1/models/${created.id}/training-images`, {
      ...as(owner),
      body: {
        data: `data:image/png;base64,${(await solid(5, 5, 250)).toString('base64')}`,
        name: 'blue.png',
      },
    });
    expect(inline.status).toBe(200);
    expect(inline.body.trainingImage).toMatchObject({
      id: expect.stringMatching(/^asset_/),
      name: 'blue.png',
    });
    expect((await harness.asset(owner, inline.body.trainingImage.id)).metadata).toMatchObject({
      type: 'uploaded',
      name: 'blue.png',
    });
    const notImage = await harness.request('POST', `/v1/models/${created.id}/training-images`, {
      ...as(owner),
      body: { data: 'data:image/png;base64,AAAA' },
    });
    expect(notImage.status).toBe(400);
    expect(JSON.stringify(notImage.body)).toContain('data');
    const images = await harness.request('GET', `/v1/models/${created.id}/training-images`, as(owner));
    expect(images.body.trainingImages.map((i: { id: string }) => i.id)).toEqual([
      asset,
      inline.body.trainingImage.id,
    ]);
    await harness.request(
      'DELETE',
      `/v1/models/${created.id}/training-images/${inline.body.trainingImage.id}`,
      as(owner),
    );
    expect(
      (await harness.request('DELETE', `/v1/models/${created.id}/training-images/${asset}`, as(owner)))
        .status,
    ).toBe(200);
    expect((await model(owner, created.id)).trainingImagesNumber).toBe(0);

    expect((await harness.request('DELETE', `/v1/models/${created.id}`, as(owner))).status).toBe(200);
    expect((await harness.request('GET', `/v1/models/${created.id}`, as(owner))).status).toBe(404);
  });

  let trainedId: string;

  it('training runs to model.training.completed; the learned colours change a generation naming the model', async () => {
    const m = await createModel(owner, { name: 'Reds', type: 'flux.1-lora' });
    for (const [r, g, b] of [
      [220, 30, 20],
      [200, 50, 40],
    ])
      await harness.request('POST', `/v1/models/${m.id}/training-images`, {
        ...as(owner),
        body: { assetId: await harness.upload(owner, await solid(r, g, b)) },
      });
    const dry = await harness.request('PUT', `/v1/models/${m.id}/train?dryRun=true`, {
      ...as(owner),
      body: {},
    });
    expect(dry).toMatchObject({ status: 200, body: { creativeUnitsCost: 0, creativeUnitsDiscount: 0 } });
    expect((await model(owner, m.id)).status).toBe('new');
    const train = await harness.request('PUT', `/v1/models/${m.id}/train`, {
      ...as(owner),
      body: { parameters: { nbEpochs: 2, paletteSize: 3 } },
    });
    expect(train.status).toBe(200);
    expect(train.body.model.status).toBe('training');
    expect(train.body.job).toMatchObject({ jobType: 'model-training' });
    expect(
      (await harness.request('PUT', `/v1/models/${m.id}/train`, { ...as(owner), body: {} })).status,
    ).toBe(409);

    const trained = await waitFor(
      async () => ((await model(owner, m.id)).status === 'trained' ? model(owner, m.id) : undefined),
      { timeoutMs: 60_000, what: 'the model to be trained' },
    );
    expect(trained.trainingProgress.progress).toBe(1);
    await waitFor(() => events('model.training.completed').some((e) => e.data.model.id === m.id), {
      timeoutMs: 30_000,
      what: 'model.training.completed',
    });
    const completed = events('model.training.completed').find((e) => e.data.model.id === m.id)!;
    expect(completed.data.model).toMatchObject({
      id: m.id,
      name: 'Reds',
      status: 'trained',
      trainer: 'builtin-colour',
    });
    expect(events('model.training.started').find((e) => e.data.model.id === m.id)?.data.model.status).toBe(
      'training',
    );

    // Same request with and without the model: the preview output moves towards the learned reds.
    const plain = await harness.generate(owner, 'txt2img', {
      modelId: 'flux.1-dev',
      prompt: 'a house',
      width: 64,
      height: 64,
    });
    const named = await harness.generate(owner, 'txt2img', {
      modelId: m.id,
      prompt: 'a house',
      width: 64,
      height: 64,
    });
    const [a, b] = await Promise.all([
      harness.finalJob(owner, plain.job.jobId),
      harness.finalJob(owner, named.job.jobId),
    ]);
    expect(b.status).toBe('success');
    const [before, after] = await Promise.all([
      harness.assetBytes(owner, a.metadata.assetIds[0]),
      harness.assetBytes(owner, b.metadata.assetIds[0]),
    ]);
    const [mb, ma] = [await meanRgb(before), await meanRgb(after)];
    expect(ma[0] - (ma[1] + ma[2]) / 2).toBeGreaterThan(mb[0] - (mb[1] + mb[2]) / 2 + 40);
    trainedId = m.id;
  });

  it('export packs the model files into a zip: model.download.completed with a working downloadUrl', async () => {
    const res = await harness.request('POST', `/v1/models/${trainedId}/download`, { ...as(owner), body: {} });
    expect(res.status).toBe(200);
    const jobId = res.body.jobId as string;
    await waitFor(() => events('model.download.completed').find((e) => e.data.jobId === jobId), {
      timeoutMs: 60_000,
      what: 'model.download.completed',
    });
    const done = events('model.download.completed').find((e) => e.data.jobId === jobId)!;
    expect(events('model.download.created').some((e) => e.data.jobId === jobId)).toBe(true);
    const zipRes = await fetch(done.data.downloadUrl);
    expect(zipRes.status).toBe(200);
    const entries = await unzipByName(Buffer.from(await zipRes.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(['manifest.json', 'model.json', 'palette.png']);
    const learned = JSON.parse(entries['model.json'].toString());
    expect(learned.kind).toBe('colour-statistics');
    expect(learned.palette[0].rgb[0]).toBeGreaterThan(150);
    expect(JSON.parse(entries['manifest.json'].toString())).toMatchObject({
      id: trainedId,
      status: 'trained',
    });

    // A public model can be exported by another team; a private one cannot be seen at all.
    expect(
      (await harness.request('POST', `/v1/models/${trainedId}/download`, { ...as(other), body: {} })).status,
    ).toBe(404);
    await harness.request('PUT', `/v1/models/${trainedId}`, { ...as(owner), body: { privacy: 'public' } });
    const theirs = await harness.request('POST', `/v1/models/${trainedId}/download`, {
      ...as(other),
      body: {},
    });
    expect(theirs.status).toBe(200);
    expect((await harness.finalJob(other, theirs.body.jobId)).status).toBe('success');
  });

  it('training again replaces the learned files: the old ones are deleted from storage', async () => {
    const store = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
    const before = await harness.db.query<{ artifacts: { files: { key: string }[] } }>(
      'SELECT artifacts FROM generation.models WHERE id = $1',
      [trainedId],
    );
    const oldKeys = before[0].artifacts.files.map((f) => f.key);
    expect(await store.exists(oldKeys[0])).toBe(true);
    const train = await harness.request('PUT', `/v1/models/${trainedId}/train`, { ...as(owner), body: {} });
    expect(train.status).toBe(200);
    await waitFor(
      async () => {
        const m = await model(owner, trainedId);
        return m.status === 'trained' && !(await store.exists(oldKeys[0])) ? true : undefined;
      },
      { timeoutMs: 60_000, what: 'the new training and the old files gone' },
    );
    const after = await harness.db.query<{ artifacts: { files: { key: string }[] } }>(
      'SELECT artifacts FROM generation.models WHERE id = $1',
      [trainedId],
    );
    expect(await store.exists(after[0].artifacts.files[0].key)).toBe(true);
  });

  it('cancel mid-training → model.training.cancelled and status training-canceled', async () => {
    const m = await createModel(owner, { name: 'Slow' });
    await harness.request('POST', `/v1/models/${m.id}/training-images`, {
      ...as(owner),
      body: { assetId: await harness.upload(owner, await solid(20, 20, 200)) },
    });
    await harness.request('PUT', `/v1/models/${m.id}/train`, {
      ...as(owner),
      body: { parameters: { nbEpochs: 50 } },
    });
    await waitFor(() => events('model.training.started').some((e) => e.data.model.id === m.id), {
      timeoutMs: 30_000,
      what: 'the training to start',
    });
    // Progress moves while it runs (the trainer reports each step; GET reads it from job-service).
    const running = await waitFor(
      async () => {
        const current = await model(owner, m.id);
        return current.trainingProgress?.progress > 0.15 ? current : undefined;
      },
      { timeoutMs: 30_000, what: 'training progress' },
    );
    expect(running).toMatchObject({ status: 'training', trainingProgress: { stage: 'running-train' } });
    const cancel = await harness.request('POST', `/v1/models/${m.id}/train/action`, {
      ...as(owner),
      body: { action: 'cancel' },
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body.model.status).toBe('training-canceled');
    await waitFor(() => events('model.training.cancelled').find((e) => e.data.model.id === m.id), {
      timeoutMs: 30_000,
      what: 'model.training.cancelled',
    });
    expect(events('model.training.cancelled').find((e) => e.data.model.id === m.id)!.data.model.status).toBe(
      'training-canceled',
    );
    expect((await model(owner, m.id)).status).toBe('training-canceled');
    expect(
      (
        await harness.request('POST', `/v1/models/${m.id}/train/action`, {
          ...as(owner),
          body: { action: 'stop' },
        })
      ).status,
    ).toBe(400);
  });

  it('a trainer faster than PUT /train: the reservation’s job is adopted by its key, another training’s is not', async () => {
    const m = await createModel(owner, { name: 'Quick', type: 'flux.1-lora' });
    const image = await harness.upload(owner, await solid(30, 200, 40));
    const row = async () =>
      (
        await harness.db.query<{ status: string; training_job_id: string | null }>(
          'SELECT status, training_job_id FROM generation.models WHERE id = $1',
          [m.id],
        )
      )[0];
    // The state PUT /train leaves between reserving the model and recording the job it created.
    await harness.db.query(
      `UPDATE generation.models SET status = 'training', training_job_id = NULL, training_attempt = 'train_now'
        WHERE id = $1`,
      [m.id],
    );
    // The job key is TrainingService's trainingJobKey(modelId, attempt).
    const trainingJob = (attempt: string) =>
      harness.createJob(owner, {
        jobType: 'model-training',
        kind: 'model-training',
        modelId: m.id,
        input: { trainingImages: [image], parameters: { nbEpochs: 1 } },
        creativeUnitsCost: 0,
        idempotencyKey: `model-training:${m.id}:${attempt}`,
      });
    const older = await trainingJob('train_before');
    expect((await harness.finalJob(owner, older.jobId)).status).toBe('success');
    const current = await trainingJob('train_now');
    expect((await harness.finalJob(owner, current.jobId)).status).toBe('success');
    await waitFor(async () => ((await row()).status === 'trained' ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the adopted training to finish the model',
    });
    expect(await row()).toEqual({ status: 'trained', training_job_id: current.jobId });
  });

  it('a failing trainer (a training image deleted meanwhile) → model.training.failed and status failed', async () => {
    const m = await createModel(owner, { name: 'Broken' });
    const asset = await harness.upload(owner, await solid(50, 50, 50));
    await harness.request('POST', `/v1/models/${m.id}/training-images`, {
      ...as(owner),
      body: { assetId: asset },
    });
    expect(
      (await harness.request('DELETE', '/v1/assets', { ...as(owner), body: { assetIds: [asset] } })).status,
    ).toBe(200);
    await harness.request('PUT', `/v1/models/${m.id}/train`, { ...as(owner), body: {} });
    await waitFor(() => events('model.training.failed').find((e) => e.data.model.id === m.id), {
      timeoutMs: 60_000,
      what: 'model.training.failed',
    });
    await waitFor(async () => ((await model(owner, m.id)).status === 'failed' ? true : undefined), {
      what: 'status failed',
    });
  });

  it('custom generation is validated against the model’s inputs, errors naming the input', async () => {
    const m = await createModel(owner, {
      name: 'Video',
      inputs: [
        { name: 'prompt', type: 'string', required: { always: true }, maxLength: 20 },
        { name: 'duration', type: 'number', min: 1, max: 10, step: 1 },
        { name: 'style', type: 'string', allowedValues: ['a', 'b'] },
        { name: 'image', type: 'file', kind: 'image' },
        {
          name: 'strength',
          type: 'number',
          required: { ifDefined: { image: 'strength is required with image' } },
        },
        { name: 'loop', type: 'boolean' },
      ],
    });
    const asset = await harness.upload(owner, await solid(1, 1, 1));
    const post = (body: unknown, id = m.id) =>
      harness.request('POST', `/v1/generate/custom/${id}`, { ...as(owner), body });
    const field = async (body: unknown) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      return Object.keys(res.body.infos.fields);
    };
    expect(await field({})).toEqual(['prompt']);
    expect(await field({ prompt: 'x'.repeat(21) })).toEqual(['prompt']);
    expect(await field({ prompt: 'x', duration: 11 })).toEqual(['duration']);
    expect(await field({ prompt: 'x', duration: 2.5 })).toEqual(['duration']);
    expect(await field({ prompt: 'x', style: 'c' })).toEqual(['style']);
    expect(await field({ prompt: 'x', image: 'not-an-asset', strength: 1 })).toEqual(['image']);
    expect(await field({ prompt: 'x', image: asset })).toEqual(['strength']);
    expect(await field({ prompt: 'x', loop: 'yes' })).toEqual(['loop']);
    expect(await field({ prompt: 'x', colour: 'red' })).toEqual(['colour']);
    const ok = await post({ prompt: 'x', duration: 3, style: 'a', image: asset, strength: 0.5, loop: true });
    expect(ok.status).toBe(200);
    expect(ok.body.job.jobType).toBe('custom');

    expect((await post({ prompt: 'x' }, 'model_doesnotexist')).status).toBe(404);
    const legacy = await createModel(owner, { name: 'Old', type: 'sd-xl-lora' });
    const pointer = await post({ prompt: 'x' }, legacy.id);
    expect(pointer.status).toBe(400);
    expect(pointer.body.infos.path).toBe('/v1/generate/txt2img');
    const foreign = await createModel(other, { name: 'Theirs' });
    expect((await post({ prompt: 'x' }, foreign.id)).status).toBe(404);
  });

  it('internal routes other processes call: upload-image (asset-service) and job cancel (job-service)', async () => {
    const bearer = { authorization: `Bearer ${harness.internalToken}` };
    const tenantRef = { teamId: owner.teamId, projectId: owner.projectId, authorId: 'key_internal' };
    const png = (await solid(9, 9, 9)).toString('base64');
    const uploaded = await harness.request('POST', '/internal/v1/assets/upload-image', {
      headers: bearer,
      body: { tenant: tenantRef, data: `data:image/png;base64,${png}`, name: 'x.png' },
    });
    expect(uploaded.status).toBe(200);
    expect((await harness.asset(owner, uploaded.body.assetId)).metadata).toMatchObject({
      type: 'uploaded',
      name: 'x.png',
    });

    // A long training (50 paced epochs), so the job is still running when it is canceled.
    const job = await harness.createJob(owner, {
      jobType: 'model-training',
      kind: 'model-training',
      modelId: 'model_internal',
      input: { trainingImages: [uploaded.body.assetId], parameters: { nbEpochs: 50 } },
      creativeUnitsCost: 0,
    });
    const cancel = (jobId: string, tenant = tenantRef) =>
      harness.request('POST', `/internal/v1/jobs/${jobId}/cancel`, {
        headers: bearer,
        body: { teamId: tenant.teamId, projectId: tenant.projectId },
      });
    expect(
      (await cancel(job.jobId, { ...tenantRef, projectId: other.projectId, teamId: other.teamId })).status,
    ).toBe(404);
    expect((await cancel(job.jobId)).body.job.status).toBe('canceled');
    expect((await cancel(job.jobId)).status).toBe(409);
  });

  it('other modes: a registry modelId must be a readable legacy-family model; base-model names pass through', async () => {
    const txt2img = (modelId: string, tenant = owner) =>
      harness.request('POST', '/v1/generate/txt2img', { ...as(tenant), body: { modelId, prompt: 'x' } });
    const missing = await txt2img('model_nothere');
    expect(missing.status).toBe(404);
    expect(missing.body.infos).toEqual({ id: 'model_nothere', field: 'modelId' });
    const custom = await createModel(owner, { name: 'Custom only' });
    const pointer = await txt2img(custom.id);
    expect(pointer.status).toBe(400);
    expect(pointer.body.infos.path).toBe(`/v1/generate/custom/${custom.id}`);
    const lora = await createModel(owner, { name: 'Lora', type: 'sd-xl-lora' });
    expect((await txt2img(lora.id, other)).status).toBe(404);
    const ok = await txt2img(lora.id);
    expect(ok.status).toBe(200);
    expect(ok.body.job.metadata.input.learnedModel).toBeUndefined();
    expect((await txt2img('flux.1-dev')).status).toBe(200);
  });
});

// The http engine hands training to an external trainer (docs/engines.md, "Training over HTTP").
describe('models: training on an external trainer (http engine)', () => {
  let harness: InferenceHarness;
  let trainer: WebhookReceiver;
  let tenant: Tenant;

  beforeAll(async () => {
    trainer = await WebhookReceiver.start({
      path: '/train',
      respondWith: () => ({
        status: 200,
        body: {
          outputs: [
            {
              name: 'weights.bin',
              data: `data:application/octet-stream;base64,${Buffer.from('WEIGHTS').toString('base64')}`,
            },
          ],
          output: { loss: 0.042 },
        },
      }),
    });
    harness = await startInferenceHarness({
      env: {
        INFERENCE_ENGINES: 'model-training=http',
        INFERENCE_HTTP_URL: trainer.url,
        INFERENCE_PREVIEW: 'off',
      },
    });
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
    await trainer?.close();
  });

  it('posts the training images inline, stores the returned files as the model’s, and the export holds them', async () => {
    const auth = { auth: tenant.auth.projectMember };
    const created = await harness.request('POST', '/v1/models', {
      ...auth,
      body: { name: 'External', type: 'flux.1-lora' },
    });
    const id = created.body.model.id as string;
    const asset = await harness.upload(tenant, await paint(8, 8, () => [1, 2, 3]));
    await harness.request('POST', `/v1/models/${id}/training-images`, { ...auth, body: { assetId: asset } });
    expect(
      (
        await harness.request('PUT', `/v1/models/${id}/train`, {
          ...auth,
          body: { parameters: { learningRate: 0.001 } },
        })
      ).status,
    ).toBe(200);
    await waitFor(
      async () =>
        (await harness.request('GET', `/v1/models/${id}`, auth)).body.model.status === 'trained'
          ? true
          : undefined,
      {
        timeoutMs: 60_000,
        what: 'the external training',
      },
    );
    const sent = JSON.parse(trainer.requests[0].rawBody.toString());
    expect(sent).toMatchObject({
      mode: 'model-training',
      modelId: id,
      input: { parameters: { learningRate: 0.001 } },
    });
    expect(sent.input.trainingImages[0]).toMatch(/^data:image\/png;base64,/);

    const download = await harness.request('POST', `/v1/models/${id}/download`, { ...auth, body: {} });
    const job = await harness.finalJob(tenant, download.body.jobId);
    expect(job.status).toBe('success');
    const zip = await unzipByName(
      Buffer.from(await (await fetch(job.metadata.output.downloadUrl as string)).arrayBuffer()),
    );
    expect(zip['weights.bin'].toString()).toBe('WEIGHTS');
  });
});

/** Every entry of a zip by name (CRC checked as each entry is read). */
async function unzipByName(zip: Buffer): Promise<Record<string, Buffer>> {
  return Object.fromEntries((await unzip(zip)).map((entry) => [entry.name, entry.bytes]));
}
