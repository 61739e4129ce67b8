import { MAX_JOB_OUTPUTS } from '@genasset/contracts';
import { sniff } from '@genasset/storage';
import { imageType, parentOf } from '../backend/backend-images';
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

/** A data URL's bytes, refusing more than `maxBytes` (decoded size, estimated before decoding). */
function dataUrl(url: string, maxBytes: number, label: string): Buffer {
  const match = /^data:[^,]*?(;base64)?,(.*)$/s.exec(url);
  if (!match) throw new EngineError(`${label} produced an output that is not a valid data URL`);
  if ((match[2].length * 3) / 4 > maxBytes + 3) throw new EngineError(`${label} produced an output of more than ${maxBytes} bytes`);
  return match[1] ? Buffer.from(match[2], 'base64') : Buffer.from(decodeURIComponent(match[2]));
}

/**
 * Stores the images of a succeeded prediction as the job's outputs: URLs streamed into storage
 * (size-capped as they arrive, typed by their first bytes) where the context can, else fetched
 * (size-capped) and decoded to check them; data URLs (Cog) are in memory already and decoded.
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
  const notImage = (i: number) => new EngineError(`${http.label} produced output ${i + 1}, which is not an image (${job.mode} needs an image)`);
  for (const [i, url] of files.slice(0, MAX_JOB_OUTPUTS).entries()) {
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
    // A URL (Replicate) streams into storage, limited as it arrives and typed by its first bytes.
    if (!url.startsWith('data:') && ctx.writeOutputStream) {
      const chunks = await http.open(url, options.maxBytes, `file ${i + 1}`, ctx.signal);
      const type = (head: Buffer) => {
        const found = sniff(head, head.length);
        if (found?.family !== 'image') throw notImage(i);
        return found.mimeType;
      };
      outputs.push(await ctx.writeOutputStream({ file, chunks, type }));
      continue;
    }
    const bytes = url.startsWith('data:') ? dataUrl(url, options.maxBytes, http.label) : await http.download(url, options.maxBytes, `file ${i + 1}`, ctx.signal);
    const mimeType = await imageType(bytes);
    if (!mimeType) throw notImage(i);
    outputs.push(await ctx.writeOutput({ ...file, bytes, mimeType }));
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
