import type { Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

// POST /v1/models/{modelId}/training-images at the 100-image limit (docs/models.md).
describe('/v1/models/{modelId}/training-images: the limit counts images, not repeats', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    harness.request(method, path, {
      auth: tenant.auth.projectAdmin,
      ...(body === undefined ? {} : { body }),
    });

  it('adding images already on a full (or nearly full) model is not refused as going over the limit', async () => {
    const created = await call('POST', '/v1/models', { name: 'Full' });
    expect(created.status).toBe(200);
    const modelId = created.body.model.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) ids.push(await harness.uploadAsset(tenant));

    const first = await call('POST', `/v1/models/${modelId}/training-images`, { assetIds: ids.slice(0, 99) });
    expect(first.status).toBe(200);
    // 99 there: one repeated and one new make 100, within the limit.
    const mixed = await call('POST', `/v1/models/${modelId}/training-images`, {
      assetIds: [ids[0], ids[99]],
    });
    expect(mixed.status).toBe(200);
    expect(mixed.body.trainingImages.map((i: { id: string }) => i.id)).toEqual([ids[0], ids[99]]);
    // 100 there: adding one already there changes nothing and is answered as usual.
    const repeated = await call('POST', `/v1/models/${modelId}/training-images`, { assetId: ids[5] });
    expect(repeated.status).toBe(200);
    expect(repeated.body.trainingImage.id).toBe(ids[5]);
    // A 101st image is refused.
    const over = await call('POST', `/v1/models/${modelId}/training-images`, {
      assetIds: [ids[1], ids[100]],
    });
    expect(over.status).toBe(400);
    expect(over.body.infos.fields.assetIds[0]).toContain('at most 100 training images');
    expect((await call('GET', `/v1/models/${modelId}`)).body.model.trainingImagesNumber).toBe(100);
  });
});
