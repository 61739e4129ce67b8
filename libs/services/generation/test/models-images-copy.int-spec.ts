import { randomBytes } from 'node:crypto';
import { S3ObjectStore } from '@genasset/storage';
import { testServices, type Tenant } from '@genasset/testing';
import { pngDataUrl, startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

// Training images (replace, remove, pairs), scores, copy and transfer (docs/models.md).
describe('/v1/models: training images, scores, copy and transfer', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let other: Tenant;
  let store: S3ObjectStore;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    [tenant, other] = [await harness.tenant(), await harness.tenant()];
    store = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
  });
  afterAll(async () => {
    await store?.close();
    await harness?.close();
  });

  const call = (method: string, path: string, body?: unknown, auth = tenant.auth.projectAdmin) =>
    harness.request(method, path, { auth, ...(body === undefined ? {} : { body }) });
  const ok = async (method: string, path: string, body?: unknown, auth?: string) => {
    const res = await call(method, path, body, auth);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const upload = async (width: number, height: number, colour: string, who = tenant) => {
    const res = await call('POST', '/v1/assets', { image: await pngDataUrl(width, height, colour), name: 'i.png' }, who.auth.projectMember);
    return res.body.asset.id as string;
  };
  const modelWith = async (assetIds: string[], type = 'flux.1-lora') => {
    const { model } = await ok('POST', '/v1/models', { name: 'Images', type });
    if (assetIds.length) await ok('POST', `/v1/models/${model.id}/training-images`, { assetIds });
    return model.id as string;
  };
  const imageIds = async (modelId: string) =>
    ((await ok('GET', `/v1/models/${modelId}/training-images`)).trainingImages as { id: string }[]).map((i) => i.id);

  it('PUT /training-images/{id} replaces one image in its place; pairs follow it', async () => {
    const [a, b, c] = [await upload(32, 32, '#ff0000'), await upload(32, 32, '#00ff00'), await upload(32, 32, '#0000ff')];
    const modelId = await modelWith([a], 'flux.1-kontext-lora');
    // Added apart: the list is in the order images were added.
    await ok('POST', `/v1/models/${modelId}/training-images`, { assetId: b });
    await ok('PUT', `/v1/models/${modelId}/training-images/pairs`, [{ sourceId: a, targetId: b, instruction: 'green' }]);
    const res = await ok('PUT', `/v1/models/${modelId}/training-images/${a}`, { assetId: c });
    expect(res.trainingImage).toMatchObject({ id: c, downloadUrl: expect.stringContaining('http') });
    expect(await imageIds(modelId)).toEqual([c, b]);
    expect((await ok('GET', `/v1/models/${modelId}`)).model.trainingImagePairs).toEqual([{ sourceId: c, targetId: b, instruction: 'green' }]);
    const data = await ok('PUT', `/v1/models/${modelId}/training-images/${b}`, { data: await pngDataUrl(16, 16), name: 'new.png' });
    expect(data.trainingImage).toMatchObject({ name: 'new.png' });
    expect(await imageIds(modelId)).toEqual([c, data.trainingImage.id]);
  });

  it('PUT /training-images/{id}: bad input names the field, another model’s or tenant’s ids are 404s, nothing changes', async () => {
    const [a, b] = [await upload(32, 32, '#111111'), await upload(32, 32, '#222222')];
    const modelId = await modelWith([a]);
    const none = await call('PUT', `/v1/models/${modelId}/training-images/${a}`, {});
    expect(none.status).toBe(400);
    expect(Object.keys(none.body.infos.fields)).toEqual(['assetId']);
    const notData = await call('PUT', `/v1/models/${modelId}/training-images/${a}`, { data: 'hello' });
    expect(notData.status).toBe(400);
    expect(Object.keys(notData.body.infos.fields)).toEqual(['data']);
    expect((await call('PUT', `/v1/models/${modelId}/training-images/${b}`, { assetId: a })).status).toBe(404);
    const foreign = await upload(32, 32, '#333333', other);
    expect((await call('PUT', `/v1/models/${modelId}/training-images/${a}`, { assetId: foreign })).status).toBe(404);
    expect((await call('PUT', `/v1/models/${modelId}/training-images/${a}`, { assetId: b }, other.auth.projectAdmin)).status).toBe(404);
    expect(await imageIds(modelId)).toEqual([a]);
  });

  it('DELETE /images removes every named training image or none', async () => {
    const [a, b, c] = [await upload(32, 32, '#440000'), await upload(32, 32, '#004400'), await upload(32, 32, '#000044')];
    const modelId = await modelWith([a, b]);
    const missing = await call('DELETE', `/v1/models/${modelId}/images?ids=${a},${c}`);
    expect(missing.status).toBe(404);
    expect(missing.body.infos).toMatchObject({ id: c });
    expect(await imageIds(modelId)).toEqual([a, b]);
    expect((await call('DELETE', `/v1/models/${modelId}/images?ids=nope`)).status).toBe(400);
    expect((await call('DELETE', `/v1/models/${modelId}/images`)).status).toBe(400);
    expect((await call('DELETE', `/v1/models/${modelId}/images?ids=${a}`, undefined, other.auth.projectAdmin)).status).toBe(404);
    expect(await ok('DELETE', `/v1/models/${modelId}/images?ids=${a}`)).toEqual({});
    expect(await imageIds(modelId)).toEqual([b]);
  });

  it('pairs: only instruction-editing types take them, both sides training images, checked field by field', async () => {
    const [a, b, c] = [await upload(32, 32, '#550000'), await upload(32, 32, '#005500'), await upload(32, 32, '#000055')];
    const lora = await modelWith([a, b]);
    const wrongType = await call('PUT', `/v1/models/${lora}/training-images/pairs`, [{ sourceId: a, targetId: b }]);
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body.infos.fields)).toEqual(['type']);
    const kontext = await modelWith([a, b], 'flux.1-kontext-lora');
    const notImage = await call('PUT', `/v1/models/${kontext}/training-images/pairs`, [{ sourceId: a, targetId: c, instruction: 'x' }]);
    expect(notImage.status).toBe(400);
    expect(Object.keys(notImage.body.infos.fields)).toEqual(['[0].targetId']);
    const notArray = await call('PUT', `/v1/models/${kontext}/training-images/pairs`, { sourceId: a });
    expect(notArray.status).toBe(400);
    const res = await ok('PUT', `/v1/models/${kontext}/training-images/pairs`, [{ sourceId: a, targetId: b, instruction: 'x' }]);
    expect(res).toEqual({ count: 1, pairs: [{ sourceId: a, targetId: b, instruction: 'x' }] });
    expect((await ok('PUT', `/v1/models/${kontext}/training-images/pairs`, [])).count).toBe(0);
  });

  it('training-dataset score: count, resolution, duplicates by embedding, captions; prompt score by shared words', async () => {
    const red = await upload(64, 64, '#ff0000');
    const red2 = await upload(48, 48, '#ff0000');
    const blue = await upload(64, 64, '#0000ff');
    const modelId = await modelWith([red, red2, blue]);
    await harness.db.query(
      `UPDATE generation.model_training_images SET description = 'a red lighthouse by the sea' WHERE model_id = $1 AND asset_id = $2`,
      [modelId, red],
    );
    const score = await ok('GET', `/v1/models/${modelId}/scores/training-dataset`);
    expect(score).toMatchObject({ modelId, status: 'complete' });
    // count 3/10 × 0.3 + resolution 0 + uniqueness (1 − 1/3) × 0.25 + captions 1/3 × 0.2
    expect(score.score).toBeCloseTo(0.09 + 0.25 * (2 / 3) + 0.2 / 3, 3);
    expect(score.assetCouplesWarnings).toEqual([{ couple: [red, red2], message: ['Similarity is too high'] }]);
    expect(score.assetsWarnings).toEqual(
      expect.arrayContaining([
        { assetId: red2, message: ['Missing caption', 'Width and height must be larger than 1024'] },
        // Unlike the two reds: an outlier of the set.
        { assetId: blue, message: ['Missing caption', 'Width and height must be larger than 1024', 'Similarity with other assets is too low'] },
      ]),
    );
    expect(score.details.metadataScore).toBe(0);

    const prompt = await ok('GET', `/v1/models/${modelId}/scores/prompt?prompt=${encodeURIComponent('a red lighthouse')}`);
    expect(prompt).toMatchObject({ modelId, status: 'complete', details: { captionsSimilarity: { mean: expect.any(Number) } } });
    expect(prompt.score).toBeGreaterThan(0.5);
    const off = await ok('GET', `/v1/models/${modelId}/scores/prompt?prompt=spaceship`);
    expect(off.score).toBe(0);
    const lora = await ok('GET', `/v1/models/${modelId}/scores/prompt?prompt=${encodeURIComponent('<lora:x:0.5> red')}`);
    expect(lora).toMatchObject({ score: 0, syntaxError: 'Unsupported prompt syntax: <name:weight> or <lora:name:weight>' });
    expect((await ok('GET', `/v1/models/${modelId}/scores/prompt`)).status).toBe('unknown');
    expect((await call('GET', `/v1/models/${modelId}/scores/training-dataset`, undefined, other.auth.projectAdmin)).status).toBe(404);
  });

  /** A trained model: status and files as a finished training leaves them (the trainer is not part of this harness). */
  const trained = async (assetIds: string[]) => {
    const modelId = await modelWith(assetIds);
    const key = `models/${tenant.projectId}/${modelId}/job_x/weights.bin`;
    const bytes = randomBytes(256);
    await store.put(key, bytes, { contentType: 'application/octet-stream' });
    const artifacts = { trainer: 'test', prefix: `models/${tenant.projectId}/${modelId}/job_x/`, files: [{ name: 'weights.bin', key, size: 256 }] };
    await harness.db.query(`UPDATE generation.models SET status = 'trained', artifacts = $2 WHERE id = $1`, [modelId, JSON.stringify(artifacts)]);
    return { modelId, key, bytes };
  };
  const filesOf = async (modelId: string) =>
    (await harness.db.query<{ artifacts: { files: { key: string }[] } | null }>('SELECT artifacts FROM generation.models WHERE id = $1', [modelId]))[0]
      ?.artifacts;
  const read = async (key: string) => {
    const object = await store.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  it('copy: a new model in the project with the same images, presets and, as trained, its own copy of the files', async () => {
    const a = await upload(32, 32, '#123456');
    const { modelId, bytes } = await trained([a]);
    const { job } = await ok('POST', '/v1/generate/txt2img', { modelId, prompt: 'x' });
    await ok('POST', `/v1/models/${modelId}/presets`, { inferenceId: job.jobId });
    const fresh = await ok('POST', `/v1/models/${modelId}/copy`, {});
    expect(fresh.model).toMatchObject({ status: 'new', ownerId: tenant.projectId, privacy: 'private', trainingImagesNumber: 1 });
    const copied = await ok('POST', `/v1/models/${modelId}/copy`, { copyAsTrained: true });
    expect(copied.model).toMatchObject({ status: 'trained', trainingImagesNumber: 1 });
    expect(await imageIds(copied.model.id)).toEqual([a]);
    expect((await ok('GET', `/v1/models/${copied.model.id}/presets`)).presets).toHaveLength(1);
    const files = (await filesOf(copied.model.id))!.files;
    expect(files[0].key).toContain(copied.model.id);
    expect(await read(files[0].key)).toEqual(bytes);
    const bad = await call('POST', `/v1/models/${modelId}/copy`, { copyAsTrained: 'yes' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.infos.fields)).toEqual(['copyAsTrained']);
    expect((await call('POST', `/v1/models/${modelId}/copy`, {}, other.auth.projectAdmin)).status).toBe(404);
  });

  it('transfer: the model moves to another project of the team with copies of its images and files; the source goes', async () => {
    const admin = { auth: `Bearer ${harness.adminToken}` };
    const { body: created } = await harness.request('POST', `/admin/v1/teams/${tenant.teamId}/projects`, { ...admin, body: { name: 'dest' } });
    const destination = created.project.id as string;
    const a = await upload(32, 32, '#654321');
    const { modelId, key, bytes } = await trained([a]);
    const team = tenant.auth.teamAdmin;
    const path = `/v1/models/${modelId}/transfer?projectId=${tenant.projectId}`;
    const missing = await call('POST', path, {}, team);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.infos.fields)).toEqual(['destinationProjectId']);
    const otherTeam = await call('POST', path, { destinationProjectId: destination, destinationTeamId: other.teamId }, team);
    expect(otherTeam.status).toBe(400);
    expect((await call('POST', path, { destinationProjectId: other.projectId }, team)).status).toBe(404);
    // A project key reaches its own project only.
    expect((await call('POST', `/v1/models/${modelId}/transfer`, { destinationProjectId: destination })).status).toBe(404);
    expect((await ok('GET', `/v1/models/${modelId}`)).model.id).toBe(modelId);

    const moved = await ok('POST', path, { destinationProjectId: destination }, team);
    expect(moved.model).toMatchObject({ ownerId: destination, status: 'trained', trainingImagesNumber: 1 });
    expect((await call('GET', `/v1/models/${modelId}`)).status).toBe(404);
    const images = await ok('GET', `/v1/models/${moved.model.id}/training-images?projectId=${destination}`, undefined, team);
    const [image] = images.trainingImages as { id: string }[];
    expect(image.id).not.toBe(a);
    const asset = await ok('GET', `/v1/assets/${image.id}?projectId=${destination}`, undefined, team);
    expect(asset.asset.metadata.originalAssetId).toBe(a);
    const files = (await filesOf(moved.model.id))!.files;
    expect(files[0].key.startsWith(`models/${destination}/${moved.model.id}/`)).toBe(true);
    expect(await read(files[0].key)).toEqual(bytes);
    expect(await store.exists(key)).toBe(false);
    // Its model.deleted fact (collections drop the source): libs/services/collection/test/membership.int-spec.ts.
  });
});
