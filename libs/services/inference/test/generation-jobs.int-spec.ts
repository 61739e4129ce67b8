import type { Tenant } from '@genasset/testing';
import { paint, rgba, startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// Generation requests through the public routes, run by the inference-worker: the job succeeds
// only once its output assets exist, and the assets hold what the engine really made.
describe('inference-worker: generation jobs end to end', () => {
  let harness: InferenceHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    harness = await startInferenceHarness();
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('pixelate: the output asset is made of uniform pixelGridSize blocks of at most colorPaletteSize colours', async () => {
    // A noisy two-colour-ish picture, 100 × 72 (not multiples of the grid).
    const input = await harness.upload(
      tenant,
      await paint(100, 72, (x, y) => [(x * 3 + ((x * 7 + y * 5) % 13)) % 256, y * 3, x < 50 ? 40 : 210]),
    );
    const body = await harness.generate(tenant, 'pixelate', {
      image: input,
      pixelGridSize: 16,
      removeNoise: false,
      colorPaletteSize: 4,
    });
    expect(body.asset).toMatchObject({ status: 'pending', source: 'pixelization' });
    const job = await harness.finalJob(tenant, body.job.jobId);
    expect(job.status).toBe('success');
    expect(job.progress).toBe(1);
    expect(job.statusHistory.map((h) => h.status)).toEqual([
      'queued',
      'in-progress',
      'finalizing',
      'success',
    ]);
    // The asset announced as pending is the one the job made.
    expect(job.metadata.assetIds).toEqual([body.asset.id]);
    expect(job.metadata.output).toMatchObject({ assetIds: [body.asset.id], engine: 'image' });

    const asset = await harness.asset(tenant, body.asset.id);
    expect(asset).toMatchObject({
      status: 'success',
      source: 'pixelization',
      mimeType: 'image/png',
      properties: { width: 100, height: 72 },
    });
    expect(asset.metadata).toMatchObject({
      type: 'pixelization',
      parentId: input,
      rootParentId: input,
      engine: 'image',
      mode: 'pixelate',
      pixelGridSize: 16,
    });

    const image = await rgba(await harness.assetBytes(tenant, body.asset.id));
    expect([image.width, image.height]).toEqual([100, 72]);
    const colours = new Set<string>();
    for (let cy = 0; cy < Math.ceil(72 / 16); cy++) {
      for (let cx = 0; cx < Math.ceil(100 / 16); cx++) {
        const first = image.data.readUInt32BE((cy * 16 * 100 + cx * 16) * 4);
        for (let y = cy * 16; y < Math.min(72, cy * 16 + 16); y++) {
          for (let x = cx * 16; x < Math.min(100, cx * 16 + 16); x++)
            expect(image.data.readUInt32BE((y * 100 + x) * 4)).toBe(first);
        }
        colours.add(first.toString(16));
      }
    }
    expect(colours.size).toBeGreaterThan(1);
    expect(colours.size).toBeLessThanOrEqual(4);
  });

  it('texture: six child maps of the right types, the texture itself as albedo', async () => {
    const texture = await harness.upload(
      tenant,
      await paint(64, 64, (x, y) => [128 + 100 * Math.sin(x / 4), 90, 128 + 100 * Math.cos(y / 5)]),
    );
    const body = await harness.generate(tenant, 'texture', { texture, raised: 0.8 });
    const job = await harness.finalJob(tenant, body.job.jobId);
    expect(job.status).toBe('success');
    expect(job.metadata.assetIds).toHaveLength(6);
    expect(job.metadata.output).toMatchObject({ albedoAssetId: texture, engine: 'image' });
    const assets = await Promise.all(job.metadata.assetIds.map((id) => harness.asset(tenant, id)));
    expect(assets.map((a) => a.source)).toEqual([
      'texture:height',
      'texture:normal',
      'texture:smoothness',
      'texture:metallic',
      'texture:edge',
      'texture:ao',
    ]);
    for (const asset of assets) {
      expect(asset.metadata).toMatchObject({
        parentId: texture,
        rootParentId: texture,
        engine: 'image',
        mode: 'texture',
      });
      expect(asset.properties).toMatchObject({ width: 64, height: 64 });
    }
  });

  it('model-only modes run in the preview engine (embedded default): deterministic, and marked as previews', async () => {
    const request = { modelId: 'flux.1-schnell', prompt: 'a red fox', width: 128, height: 96, seed: 1234 };
    const first = await harness.generate(tenant, 'txt2img', request);
    const second = await harness.generate(tenant, 'txt2img', request);
    const jobs = await Promise.all([first, second].map((b) => harness.finalJob(tenant, b.job.jobId)));
    expect(jobs.map((j) => j.status)).toEqual(['success', 'success']);
    expect(jobs[0].metadata.output).toMatchObject({ engine: 'preview', seed: 1234 });
    const [a, b] = await Promise.all(jobs.map((j) => harness.asset(tenant, j.metadata.assetIds[0])));
    expect(a).toMatchObject({ source: 'inference-txt', properties: { width: 128, height: 96 } });
    expect(a.metadata).toMatchObject({ engine: 'preview', mode: 'txt2img', seed: '1234' }); // upstream types metadata.seed as a string
    const bytes = await Promise.all(jobs.map((j) => harness.assetBytes(tenant, j.metadata.assetIds[0])));
    expect(bytes[0].equals(bytes[1])).toBe(true);
    expect(b.id).not.toBe(a.id);
  });

  it('a data-URL input is read from the claim-checked key; the output has no parent', async () => {
    const png = await paint(40, 30, (x) => [x * 6, 80, 80]);
    const body = await harness.generate(tenant, 'upscale', {
      image: `data:image/png;base64,${png.toString('base64')}`,
      scalingFactor: 2,
    });
    const job = await harness.finalJob(tenant, body.job.jobId);
    expect(job.status).toBe('success');
    const asset = await harness.asset(tenant, job.metadata.assetIds[0]);
    expect(asset).toMatchObject({ source: 'upscale', properties: { width: 80, height: 60 } });
    expect(asset.metadata.parentId).toBeUndefined();
  });
});
