import { MAX_JOB_OUTPUTS } from '@genasset/contracts';
import { parentOf } from '../backend/backend-images';
import { dataUrlChunks, storeBackendFile, tooLarge } from '../backend/backend-outputs';
import type { BackendHttp } from '../backend/backend-http';
import { EngineError, type EngineContext, type EngineJob, type StoredOutput } from '../engine';
import { outputAssetType } from '../modes';
import type { Prediction } from './prediction-api';

/** The files of a prediction's output: a URL or data URL, a list of them, or an object holding them (Cog `Path` outputs). */
export function outputFiles(output: unknown): string[] {
  if (typeof output === 'string') return /^(https?:|data:)/.test(output) ? [output] : [];
  if (Array.isArray(output)) return output.flatMap(outputFiles);
  if (output && typeof output === 'object') return Object.values(output).flatMap(outputFiles);
  return [];
}

/**
 * Stores the images of a succeeded prediction as the job's outputs, each through the one backend
 * output path (storeBackendFile): a URL (Replicate) streamed from the backend, a data URL (Cog)
 * decoded a slice at a time — both limited to `maxBytes` and typed by their first bytes.
 */
export async function storePredictionOutputs(
  http: BackendHttp,
  prediction: Prediction,
  job: EngineJob,
  ctx: EngineContext,
  options: { backend: string; maxBytes: number; seed?: number; model?: string },
): Promise<StoredOutput[]> {
  const files = outputFiles(prediction.output);
  if (files.length === 0) throw new EngineError(`${http.label} finished prediction ${prediction.id} without a file output`);
  const parentAssetId = parentOf(job.input);
  const outputs: StoredOutput[] = [];
  for (const [i, url] of files.slice(0, MAX_JOB_OUTPUTS).entries()) {
    const what = `output ${i + 1}`;
    const chunks = url.startsWith('data:')
      ? dataUrlChunks(
          url,
          options.maxBytes,
          () => http.invalid(`prediction ${prediction.id}`, `${what} is not a valid data URL`),
          (size) => tooLarge(http.label, what, size, options.maxBytes),
        )
      : await http.open(url, options.maxBytes, what, ctx.signal);
    const file = {
      assetType: outputAssetType(job.mode),
      ...(parentAssetId ? { parentAssetId } : {}),
      metadata: {
        backend: options.backend,
        ...(options.model ? { backendModel: options.model } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        predictionId: prediction.id,
      },
    };
    outputs.push(await storeBackendFile(ctx, http.label, job.mode, { what, chunks, file }));
  }
  return outputs;
}

/** The last percentage a prediction's logs show (tqdm bars: ` 45%|████▌     | 9/20`), 0–1. */
export function logProgress(logs: unknown): number | undefined {
  if (typeof logs !== 'string') return undefined;
  const all = [...logs.matchAll(/(\d{1,3})%\|/g)];
  const last = all.at(-1);
  return last ? Math.min(1, Number(last[1]) / 100) : undefined;
}

/** The reason of a failed prediction: its `error`, one line. */
export function predictionError(prediction: Prediction): string {
  const error = typeof prediction.error === 'string' ? prediction.error : prediction.error ? JSON.stringify(prediction.error) : 'no reason given';
  return error.replace(/\s+/g, ' ').trim().slice(0, 300);
}
