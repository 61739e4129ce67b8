import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { FilesystemObjectStore } from '@genasset/storage';
import { EngineError } from '../engine';
import { RASTER_LIMITS } from '../image/raster';
import { fakeContext, job, pixels } from '../testing/fake-context';
import { trainColourModel } from './colour-trainer';
import { applyColourModel, readColourModel } from './learned-colours';

const solid = (r: number, g: number, b: number, size = 24) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
const mean = (data: Buffer, c: number) => {
  let sum = 0;
  for (let i = c; i < data.length; i += 4) sum += data[i];
  return sum / (data.length / 4);
};

describe('built-in colour trainer', () => {
  let dir: string;
  let store: FilesystemObjectStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trainer-'));
    store = new FilesystemObjectStore({
      rootDir: dir,
      signingSecret: 'x'.repeat(32),
      publicBaseUrl: 'http://localhost',
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const train = async (images: Record<string, Buffer>, parameters: Record<string, unknown> = {}) => {
    const ctx = { ...fakeContext(images), store };
    const input = { trainingImages: Object.keys(images), parameters };
    const result = await trainColourModel(
      job('model-training', input, { modelId: 'model_m', jobType: 'model-training' }),
      ctx,
      {
        stepDelayMs: 0,
      },
    );
    return { result, ctx };
  };

  it('learns the palette and Lab statistics of the images, reporting progress per step', async () => {
    const { result, ctx } = await train(
      { asset_r: await solid(230, 20, 20), asset_b: await solid(20, 20, 230) },
      { paletteSize: 2, nbEpochs: 2 },
    );
    expect(result.outputs).toEqual([]);
    const model = result.extra!.model as { files: { name: string }[]; statistics: { palette: string[] } };
    expect(model.files.map((f) => f.name)).toEqual(['model.json', 'palette.png']);
    expect([...model.statistics.palette].sort()).toEqual(['#1414e6', '#e61414']);
    expect(ctx.progressed).toEqual([0.25, 0.5, 0.75, 1]);
    const learned = await readColourModel(store, 'models/proj_1/model_m/job_test/model.json');
    expect(learned.palette.map((p) => p.weight)).toEqual([0.5, 0.5]);
    // Pure red and pure blue both have a strongly positive a* in CIE Lab.
    expect(learned.lab.mean[1]).toBeGreaterThan(20);
  });

  it('applying the learned statistics moves an output towards them', async () => {
    await train({ asset_r: await solid(220, 40, 30) }, { strength: 1 });
    const learned = await readColourModel(store, 'models/proj_1/model_m/job_test/model.json');
    const grey = await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 40, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const out = await applyColourModel(
      { bytes: grey, mimeType: 'image/png', assetType: 'inference-txt2img' },
      learned,
    );
    const { data } = await pixels(out.bytes);
    expect(mean(data, 0)).toBeGreaterThan(180);
    expect(mean(data, 2)).toBeLessThan(80);
    expect(out.metadata).toMatchObject({ learnedColours: { strength: 1 } });
  });

  it('fails, naming the image, when a training image is not an image', async () => {
    await expect(train({ asset_bad: Buffer.from('not an image') })).rejects.toThrow(
      new EngineError('trainingImages[0]: asset asset_bad is not a readable image'),
    );
  });

  it("trains on a training image larger than the engine's raster limit: it reads a 256 px rendition, not the full pixels", async () => {
    // POST /v1/models/{modelId}/training-images accepts what asset-service accepts (up to 16384 × 16384);
    // the raster limit (INFERENCE_MAX_PIXELS, 64 MP by default) guards full decodes, which training never does.
    const limit = RASTER_LIMITS.maxPixels;
    RASTER_LIMITS.maxPixels = 24 * 24 - 1;
    try {
      const { result } = await train({ asset_big: await solid(230, 20, 20) }, { paletteSize: 2 });
      const model = result.extra!.model as { statistics: { palette: string[] } };
      expect(model.statistics.palette).toEqual(['#e61414']);
    } finally {
      RASTER_LIMITS.maxPixels = limit;
    }
  });
});
