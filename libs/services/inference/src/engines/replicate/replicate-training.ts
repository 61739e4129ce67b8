import { ZipFile } from 'yazl';
import type { ReplicateBackendConfig } from '@genasset/config';
import { EngineError, throwIfAborted, type EngineContext, type EngineJob, type EngineResult } from '../engine';
import { TRAINING_ROUTE } from '../modes';
import { predictionError } from './prediction-outputs';
import { trainedVersion, type Training } from './training-api';

/** Upstream training parameters a trainer on Replicate takes, and the input names most trainers (ostris/flux-dev-lora-trainer…) give them. */
const PARAMETERS: Readonly<Record<string, string>> = {
  maxTrainSteps: 'steps',
  learningRate: 'learning_rate',
  rank: 'lora_rank',
  batchSize: 'batch_size',
  conceptPrompt: 'trigger_word',
  seed: 'seed',
};

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** The model's training images (`input.trainingImages`, asset ids), read and packed in one zip, as trainers take them. */
export async function trainingImagesZip(job: EngineJob, ctx: EngineContext): Promise<Buffer> {
  const ids = Array.isArray(job.input.trainingImages) ? job.input.trainingImages : [];
  if (ids.length === 0) throw new EngineError('the model has no training images');
  const zip = new ZipFile();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.once('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.once('error', reject);
  });
  for (const [i, id] of ids.entries()) {
    throwIfAborted(ctx.signal);
    const image = await ctx.readInput(id, `trainingImages[${i}]`);
    zip.addBuffer(image.bytes, `${String(i + 1).padStart(3, '0')}.${EXTENSIONS[image.mimeType] ?? 'png'}`);
  }
  zip.end();
  return done;
}

/**
 * The trainer's input: the images zip's URL under `trainingImagesInput`, the upstream parameters
 * the model holds under the names trainers use, then the route's literal inputs (which win).
 */
export function trainingInput(job: EngineJob, config: ReplicateBackendConfig, imagesUrl: string): Record<string, unknown> {
  const parameters = (job.input.parameters ?? {}) as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  for (const [field, name] of Object.entries(PARAMETERS)) {
    const value = parameters[field];
    if (value !== undefined && value !== null && value !== '') input[name] = value;
  }
  return { ...input, ...config.inputs[TRAINING_ROUTE], [config.trainingImagesInput]: imagesUrl };
}

/**
 * The result of a finished training: on success the model's record (`output.model`, what
 * generation-service keeps: the trained version later generations run), else the job's failure.
 */
export function trainingResult(training: Training, config: ReplicateBackendConfig, label: string): EngineResult {
  if (training.status === 'failed' || training.status === 'aborted')
    throw new EngineError(`${label} failed training ${training.id}: ${predictionError(training)}`);
  if (training.status === 'canceled') throw new EngineError(`${label} canceled training ${training.id}`);
  const version = trainedVersion(training, config.destination!);
  if (!version) throw new EngineError(`${label} finished training ${training.id} without output.version (the destination's new version)`);
  return {
    outputs: [],
    extra: {
      engine: 'replicate',
      backend: config.name,
      model: {
        trainer: 'replicate',
        backend: config.name,
        version,
        trainedFrom: config.models[TRAINING_ROUTE],
        trainingId: training.id,
        // The weights stay on Replicate (its output URL needs the token): nothing to export here.
        files: [],
      },
    },
  };
}
