import { sleep } from '@genasset/contracts';
import sharp from 'sharp';
import {
  EngineError,
  throwIfAborted,
  type EngineContext,
  type EngineJob,
  type EngineResult,
} from '../engine';
import { kmeans } from '../image/kmeans';
import { num } from '../image/params';
import { yieldToLoop, type Raster } from '../image/raster';
import { labStats } from '../image/restyle';
import { modelFilesPrefix, putModelFile, type ColourModel } from './model-files';

/** Set once from INFERENCE_TRAINER_STEP_DELAY at start (like RASTER_LIMITS): a pause after each training step. */
export const TRAINER_SETTINGS = { stepDelayMs: 0 };

/**
 * Largest training image read (pixels): what asset-service accepts on upload, so every image
 * POST /v1/models/{modelId}/training-images takes can be trained on. Not the engine's raster limit
 * (INFERENCE_MAX_PIXELS, for full decodes): a training image is only read as a 256 px rendition,
 * shrunk while it is decoded (sequential read).
 */
const MAX_TRAINING_IMAGE_PIXELS = 16384 * 16384;

/** Pixels sampled per image for the palette (the statistics use every pixel of the 256 px rendition). */
const SAMPLES_PER_IMAGE = 4096;

/**
 * The built-in trainer (`model-training` on the image engine): learns the
 * colour statistics of the training images — pooled CIE L*a*b* mean and
 * standard deviation, and a k-means palette — and stores them as the model's
 * files (`model.json`, `palette.png`). Generations naming the model then move
 * their outputs towards these statistics (Reinhard colour transfer,
 * learned-colours.ts). Real and small: no neural network, and it says so.
 *
 * Parameters: `nbEpochs` (1–50, default 1) refinement passes of the palette
 * over the images; `paletteSize` (2–16, default 6); `strength` (0–1, default 0.85).
 */
export async function trainColourModel(
  job: EngineJob,
  ctx: EngineContext,
  options: { stepDelayMs: number },
): Promise<EngineResult> {
  const store = ctx.store;
  if (!store) throw new EngineError('the built-in trainer needs object storage');
  if (!job.modelId) throw new EngineError('a training job must name its model');
  const ids = Array.isArray(job.input.trainingImages) ? job.input.trainingImages : [];
  if (ids.length === 0) throw new EngineError('the model has no training images');
  const parameters = (job.input.parameters ?? {}) as Record<string, unknown>;
  const epochs = Math.round(num(parameters.nbEpochs, 1, 1, 50));
  const paletteSize = Math.round(num(parameters.paletteSize, 6, 2, 16));
  const strength = num(parameters.strength, 0.85, 0, 1);

  const rasters: Raster[] = [];
  const steps = ids.length + epochs;
  let step = 0;
  const advance = async () => {
    step++;
    await ctx.progress(step / steps);
    if (options.stepDelayMs > 0) await sleep(options.stepDelayMs, { signal: ctx.signal });
    throwIfAborted(ctx.signal);
  };
  for (const [i, id] of ids.entries()) {
    const image = await ctx.readInput(id, `trainingImages[${i}]`);
    let decoded;
    try {
      decoded = await sharp(image.bytes, {
        limitInputPixels: MAX_TRAINING_IMAGE_PIXELS,
        failOn: 'error',
        sequentialRead: true,
      })
        .rotate()
        .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
    } catch {
      throw new EngineError(`trainingImages[${i}]: asset ${String(id)} is not a readable image`);
    }
    rasters.push({ data: decoded.data, width: decoded.info.width, height: decoded.info.height, channels: 4 });
    await advance();
  }
  const stats = labStats(rasters);
  const points = samplePixels(rasters);
  let centroids: Float32Array = new Float32Array(0);
  for (let epoch = 0; epoch < epochs; epoch++) {
    // Each epoch reseeds k-means and keeps the run with the lowest error: more epochs, a steadier palette.
    const run = kmeans(points, paletteSize, { iterations: 12, seed: epoch + 1 });
    if (epoch === 0 || inertia(points, run) < inertia(points, centroids)) centroids = run;
    await yieldToLoop();
    await advance();
  }
  const model: ColourModel = {
    kind: 'colour-statistics',
    version: 1,
    lab: { mean: round3(stats.mean), std: round3(stats.std) },
    palette: palette(points, centroids),
    images: ids.length,
    epochs,
    strength,
  };
  const prefix = modelFilesPrefix(job.tenant.projectId, job.modelId, job.jobId);
  const json = Buffer.from(JSON.stringify(model, null, 2));
  const files = [
    await putModelFile(store, prefix, 'model.json', json, 'application/json'),
    await putModelFile(store, prefix, 'palette.png', await swatch(model), 'image/png'),
  ];
  return {
    outputs: [],
    extra: {
      model: {
        trainer: 'builtin-colour',
        files,
        statistics: {
          labMean: model.lab.mean,
          labStd: model.lab.std,
          palette: model.palette.map((p) => p.hex),
        },
      },
    },
  };
}

function samplePixels(rasters: readonly Raster[]): Float32Array {
  const out: number[] = [];
  for (const r of rasters) {
    const n = r.width * r.height;
    const stride = Math.max(1, Math.floor(n / SAMPLES_PER_IMAGE));
    for (let i = 0; i < n; i += stride) {
      const p = i * r.channels;
      if (r.channels === 4 && r.data[p + 3] < 128) continue;
      out.push(r.data[p], r.data[p + 1], r.data[p + 2]);
    }
  }
  return Float32Array.from(out);
}

function nearest(points: Float32Array, i: number, centroids: Float32Array): { c: number; d: number } {
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < centroids.length / 3; c++) {
    let d = 0;
    for (let k = 0; k < 3; k++) d += (points[i * 3 + k] - centroids[c * 3 + k]) ** 2;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return { c: best, d: bestD };
}

function inertia(points: Float32Array, centroids: Float32Array): number {
  if (centroids.length === 0) return Infinity;
  let total = 0;
  for (let i = 0; i < points.length / 3; i++) total += nearest(points, i, centroids).d;
  return total;
}

function palette(points: Float32Array, centroids: Float32Array): ColourModel['palette'] {
  const counts = new Array<number>(centroids.length / 3).fill(0);
  const n = points.length / 3;
  for (let i = 0; i < n; i++) counts[nearest(points, i, centroids).c]++;
  return counts
    .map((count, c) => {
      const rgb = [0, 1, 2].map((k) => Math.round(centroids[c * 3 + k])) as [number, number, number];
      return {
        rgb,
        hex: `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`,
        weight: n ? count / n : 0,
      };
    })
    .filter((p) => p.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((p) => ({ ...p, weight: Math.round(p.weight * 1000) / 1000 }));
}

/** A 64 px high strip of the palette, each colour as wide as its share: a preview a person can look at. */
async function swatch(model: ColourModel): Promise<Buffer> {
  const width = 256;
  const height = 64;
  const data = Buffer.alloc(width * height * 3);
  let x = 0;
  for (const [i, p] of model.palette.entries()) {
    const w = i === model.palette.length - 1 ? width - x : Math.round(p.weight * width);
    for (let xx = x; xx < Math.min(width, x + w); xx++)
      for (let y = 0; y < height; y++) data.set(p.rgb, (y * width + xx) * 3);
    x += w;
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const round3 = (v: readonly number[]) =>
  v.map((x) => Math.round(x * 1000) / 1000) as [number, number, number];

