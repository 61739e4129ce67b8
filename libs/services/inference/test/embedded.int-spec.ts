import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedServiceEnv, freePort, type Tenant, seedEmbeddedDataDir } from '@genasset/testing';
import { paint, rgba, startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// Embedded mode (PGlite's single connection, the in-process transport, files on disk): the same
// flow — queue, worker, outputs, assets, success — on the other adapters.
describe('inference-worker in embedded mode', () => {
  let dataDir: string;
  let harness: InferenceHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'inference-embedded-'));
    await seedEmbeddedDataDir(dataDir);
    const port = await freePort();
    harness = await startInferenceHarness({
      env: embeddedServiceEnv(dataDir, port),
    });
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('pixelates, and previews a txt2img', async () => {
    const input = await harness.upload(tenant, await paint(48, 48, (x, y) => [x * 5, y * 5, 128]));
    const pixelate = await harness.generate(tenant, 'pixelate', {
      image: input,
      pixelGridSize: 16,
      removeNoise: true,
      colorPaletteSize: 3,
    });
    const txt2img = await harness.generate(tenant, 'txt2img', {
      modelId: 'flux.1-dev',
      prompt: 'embedded',
      width: 64,
      height: 64,
      seed: 5,
    });
    const [p, t] = await Promise.all([
      harness.finalJob(tenant, pixelate.job.jobId),
      harness.finalJob(tenant, txt2img.job.jobId),
    ]);
    expect([p.status, t.status]).toEqual(['success', 'success']);
    expect(p.metadata.assetIds).toEqual([pixelate.asset.id]);
    const image = await rgba(await harness.assetBytes(tenant, pixelate.asset.id));
    expect(image.data.readUInt32BE(0)).toBe(image.data.readUInt32BE((15 * 48 + 15) * 4));
    expect((await harness.asset(tenant, t.metadata.assetIds[0])).metadata).toMatchObject({
      engine: 'preview',
    });
  });
});
