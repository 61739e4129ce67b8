import sharp from 'sharp';
import {
  INFERENCE_DEFAULT_SIDE,
  INPUT_PICTURE_FIELDS,
  MAX_JOB_OUTPUTS,
  pictureOutputSize,
  SKYBOX_DEFAULT_WIDTH,
} from '@genasset/contracts';
import type { Engine, EngineContext, EngineJob, EngineResult, InputImage, StoredOutput } from '../engine';
import { int, str } from '../image/params';
import { sizeOf } from '../image/raster';
import { isResultMode, outputAssetType } from '../modes';
import { digest, previewPng, previewSvg } from './preview-image';
import { describeImage, hashedEmbedding, previewPrompts } from './preview-text';

/** Request fields that say nothing about the picture (ids of outputs, flags for the asset). */
const NOT_FINGERPRINTED = new Set([
  'outputAssetId',
  'imageParentId',
  'imageHide',
  'hideResults',
  'generationMode',
]);

/**
 * Deterministic placeholders for modes that need a model, like a payment
 * provider's test mode: a client integrates end to end (jobs, assets,
 * webhooks, result fields) without a model server. Every output says so:
 * assets carry `metadata.engine = "preview"` and the job's output
 * `engine: "preview"`. The same request with the same seed gives the same
 * bytes; without a seed, one is derived from the request (and recorded).
 */
export class PreviewEngine implements Engine {
  readonly name = 'preview';

  supports(): boolean {
    return true;
  }

  async run(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    const request = Object.fromEntries(Object.entries(job.input).filter(([k]) => !NOT_FINGERPRINTED.has(k)));
    const seed =
      seedOf(job.input.seed) ??
      digest({ mode: job.mode, modelId: job.modelId, request }).readUInt32BE(0) % 2147483647;
    const fingerprint = { mode: job.mode, modelId: job.modelId ?? null, request, seed };
    if (isResultMode(job.mode))
      return { outputs: [], extra: { ...(await this.text(job, ctx, fingerprint)), engine: 'preview', seed } };

    const base = await this.baseImage(job, ctx);
    const size = await this.size(job, base?.image);
    const count = this.count(job);
    const outputs: StoredOutput[] = [];
    for (let index = 0; index < count; index++) {
      const spec = {
        mode: job.mode,
        ...size,
        fingerprint: { ...fingerprint, index },
        prompt: str(job.input.prompt),
        seed,
        index,
      };
      const svg = job.mode === 'vectorize';
      const format = svg ? undefined : outputFormat(job);
      const png = svg
        ? undefined
        : await previewPng({ ...spec, ...(base ? { base: base.image.bytes } : {}) });
      outputs.push(
        await ctx.writeOutput({
          bytes: svg ? Buffer.from(previewSvg(spec)) : await encode(png!, format),
          mimeType: svg ? 'image/svg+xml' : `image/${format ?? 'png'}`,
          assetType: outputAssetType(job.mode),
          ...(base?.parent ? { parentAssetId: base.parent } : {}),
          metadata: {
            width: size.width,
            height: size.height,
            seed,
            ...(job.mode === 'detect' ? { modality: str(job.input.modality) ?? 'canny' } : {}),
            ...(job.modelId ? { modelId: job.modelId } : {}),
          },
        }),
      );
      await ctx.progress((index + 1) / count);
    }
    return { outputs, extra: { engine: 'preview', seed } };
  }

  private async text(
    job: EngineJob,
    ctx: EngineContext,
    fingerprint: unknown,
  ): Promise<Record<string, unknown>> {
    const { input } = job;
    switch (job.mode) {
      case 'caption': {
        const refs = [...list(input.images), ...list(input.assetIds)];
        const captions: string[] = [];
        for (const [i, ref] of refs.entries())
          captions.push(`[preview] ${await describeImage(await ctx.readInput(ref, `images.${i}`))}`);
        return { captions };
      }
      case 'describe-style': {
        const refs = [...list(input.images), ...list(input.assetIds)].slice(0, 8);
        const parts: string[] = [];
        for (const [i, ref] of refs.entries())
          parts.push(await describeImage(await ctx.readInput(ref, `images.${i}`)));
        const what = parts.length
          ? parts.join('; ')
          : `the images of model ${str(input.modelId) ?? 'unknown'}`;
        return {
          description: `[preview] style of ${what}`,
          synthesis: `[preview] ${parts.length || 'no'} reference image(s)`,
        };
      }
      case 'embed':
        return { embedding: hashedEmbedding(str(input.text) ?? '') };
      case 'prompt':
        return {
          prompts: previewPrompts(str(input.prompt), int(input.numResults, 1, 1, 5), fingerprint).map(
            (p) => `[preview] ${p}`,
          ),
        };
      case 'translate':
        // No translation model: the text comes back as it is, and says it was not translated.
        return { translation: str(input.prompt) ?? '', detectedLanguage: 'und' };
      default:
        return {};
    }
  }

  /** The request's input picture, shown under img2img-like previews and sizing image-tool previews. */
  private async baseImage(
    job: EngineJob,
    ctx: EngineContext,
  ): Promise<{ image: InputImage; parent?: string } | undefined> {
    const field = INPUT_PICTURE_FIELDS.find((f) => typeof job.input[f] === 'string');
    if (!field) return undefined;
    const image = await ctx.readInput(job.input[field], field);
    return { image, parent: image.assetId ?? str(job.input.imageParentId) };
  }

  private async size(job: EngineJob, base?: InputImage): Promise<{ width: number; height: number }> {
    const { input } = job;
    if (job.mode === 'skybox-base-360') {
      const width = int(input.width, SKYBOX_DEFAULT_WIDTH, 256, 4096);
      return { width, height: Math.round(width / 2) };
    }
    if (input.width !== undefined || input.height !== undefined) {
      // A missing side takes the body's documented default: 512 for model inference
      // (upstream: "within [64, 2048], default: 512"), else the given side (a square).
      const inference = job.jobType === 'inference';
      const width = int(
        input.width,
        inference ? INFERENCE_DEFAULT_SIDE : int(input.height, 1024, 16, 4096),
        16,
        4096,
      );
      const height = int(input.height, inference ? INFERENCE_DEFAULT_SIDE : width, 16, 4096);
      return { width, height };
    }
    if (base) {
      const { width, height } = await sizeOf(base.bytes, base.field);
      return pictureOutputSize(width, height);
    }
    return job.jobType === 'inference'
      ? { width: INFERENCE_DEFAULT_SIDE, height: INFERENCE_DEFAULT_SIDE }
      : { width: 1024, height: 1024 };
  }

  private count(job: EngineJob): number {
    const requested = job.input.numSamples ?? job.input.numOutputs;
    return int(requested, 1, 1, MAX_JOB_OUTPUTS);
  }
}

/** The output format a mode's body asks for: prompt-editing's `format` (jpeg, png, webp; upstream gpt-image-1). */
function outputFormat(job: EngineJob): 'jpeg' | 'webp' | undefined {
  if (job.mode !== 'prompt-editing') return undefined;
  const format = str(job.input.format);
  return format === 'jpeg' || format === 'webp' ? format : undefined;
}

async function encode(png: Buffer, format: 'jpeg' | 'webp' | undefined): Promise<Buffer> {
  if (format === 'jpeg')
    return sharp(png).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer();
  if (format === 'webp') return sharp(png).webp({ quality: 90 }).toBuffer();
  return png;
}

function seedOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^\d{1,10}$/.test(value)) return Number(value);
  return undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
