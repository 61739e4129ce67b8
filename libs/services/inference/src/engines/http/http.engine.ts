import { INPUT_PICTURE_FIELDS, MAX_JOB_OUTPUTS, sleep } from '@genasset/contracts';
import {
  EngineAborted,
  EngineError,
  type Engine,
  type EngineContext,
  type EngineJob,
  type EngineResult,
  type StoredOutput,
} from '../engine';
import { base64Chunks, storeBackendFile, tooLarge } from '../backend/backend-outputs';
import { str } from '../image/params';
import { isResultMode, outputAssetType, TRAINING_ROUTE } from '../modes';
import { modelFilesPrefix, putModelFile } from '../training/model-files';
import { imageReferences, withDataUrls } from './image-references';

export interface HttpEngineSettings {
  url: string;
  token?: string;
  timeoutMs: number;
  /** Retries after the first attempt (5xx, 408, 429, timeouts, connection errors). */
  retries: number;
  retryDelayMs: number;
  /** Largest request body (inline images), bytes. */
  maxRequestBytes?: number;
  /** Largest output file taken from the server, bytes (INFERENCE_HTTP_MAX_OUTPUT_BYTES; default 64 MiB). */
  maxOutputBytes?: number;
}

/** How the job's reasons name the server (and where its output limit is set). */
const LABEL = 'the inference server';
const LIMIT_SETTING = 'INFERENCE_HTTP_MAX_OUTPUT_BYTES';

const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Version tag of the request body; a server can refuse versions it does not know. */
export const HTTP_CONTRACT = 'genasset.inference.v1';

interface ServerOutput {
  data?: unknown;
  mimeType?: unknown;
  assetType?: unknown;
  parentAssetId?: unknown;
  metadata?: unknown;
}

/**
 * Forwards a mode to an inference server (docs/engines.md, "HTTP engine
 * contract"): one POST with the request and its images inline as data URLs,
 * answered with the output files (base64) and result fields. Each output file
 * takes the one path of backend outputs (storeBackendFile: limited to
 * maxOutputBytes before it is decoded, typed by its first bytes, streamed into
 * the object store). Transient
 * failures (5xx, 408, 429, timeouts, connection errors) are retried with
 * exponential backoff; a refusal (other 4xx) or the last failure fails the job
 * with a reason that says what happened, never the server's internals beyond
 * its own error message.
 */
export class HttpEngine implements Engine {
  readonly name = 'http';

  constructor(private readonly settings: HttpEngineSettings) {}

  supports(): boolean {
    return true;
  }

  async run(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    const references = imageReferences(job.input);
    const images = new Map<string, { dataUrl: string; assetId?: string; mimeType: string }>();
    let size = 0;
    for (const ref of references) {
      const image = await ctx.readInput(ref.value, ref.path);
      size += image.bytes.length;
      if (size > (this.settings.maxRequestBytes ?? 96 * 1024 * 1024))
        throw new EngineError('the input images are too large to forward to the inference server');
      images.set(ref.path, {
        dataUrl: `data:${image.mimeType};base64,${image.bytes.toString('base64')}`,
        mimeType: image.mimeType,
        ...(image.assetId ? { assetId: image.assetId } : {}),
      });
    }
    const body = JSON.stringify({
      contract: HTTP_CONTRACT,
      jobId: job.jobId,
      jobType: job.jobType,
      mode: job.mode,
      ...(job.modelId ? { modelId: job.modelId } : {}),
      input: withDataUrls(job.input, images),
      images: [...images].map(([field, image]) => ({
        field,
        mimeType: image.mimeType,
        ...(image.assetId ? { assetId: image.assetId } : {}),
      })),
    });
    await ctx.progress(0.1);
    const answer = await this.post(body, job, ctx.signal);
    await ctx.progress(0.8);
    if (job.mode === TRAINING_ROUTE) return this.trainedFiles(answer, job, ctx);
    return this.outputs(answer, job, ctx, images);
  }

  private async post(body: string, job: EngineJob, signal: AbortSignal): Promise<Record<string, unknown>> {
    const attempts = this.settings.retries + 1;
    let last = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (signal.aborted) throw new EngineAborted();
      const timeout = AbortSignal.timeout(this.settings.timeoutMs);
      try {
        const response = await fetch(this.settings.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-job-id': job.jobId,
            ...(this.settings.token ? { authorization: `Bearer ${this.settings.token}` } : {}),
          },
          body,
          signal: AbortSignal.any([signal, timeout]),
        });
        const text = await response.text();
        if (response.ok) return parseAnswer(text);
        const message = serverMessage(text);
        if (!retryable(response.status)) {
          throw new EngineError(
            `the inference server refused the request (HTTP ${response.status})${message ? `: ${message}` : ''}`,
          );
        }
        last = `HTTP ${response.status}${message ? `: ${message}` : ''}`;
      } catch (error) {
        if (error instanceof EngineError) throw error;
        if (signal.aborted) throw new EngineAborted();
        last = timeout.aborted
          ? `no answer within ${duration(this.settings.timeoutMs)}`
          : 'it could not be reached';
      }
      if (attempt < attempts) await sleep(this.settings.retryDelayMs * 2 ** (attempt - 1), { signal });
    }
    throw new EngineError(
      `the inference server failed (${last}) after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
    );
  }

  /**
   * An external trainer's answer (docs/engines.md): `outputs[]` are the model's
   * files (`name`, `data`), stored as the model's files — never as assets —
   * and `output` is kept as the model's training statistics.
   */
  private async trainedFiles(
    answer: Record<string, unknown>,
    job: EngineJob,
    ctx: EngineContext,
  ): Promise<EngineResult> {
    const files = Array.isArray(answer.outputs)
      ? (answer.outputs as (ServerOutput & { name?: unknown })[])
      : [];
    if (files.length === 0 || files.length > MAX_JOB_OUTPUTS)
      throw new EngineError(
        `the trainer answered with ${files.length} model files (expected 1 to ${MAX_JOB_OUTPUTS})`,
      );
    if (!ctx.store || !job.modelId) throw new EngineError('a training job needs object storage and a model');
    const prefix = modelFilesPrefix(job.tenant.projectId, job.modelId, job.jobId);
    const stored = [];
    for (const [i, file] of files.entries()) {
      const decoded = decodeFile(file, i);
      const name = str(file.name) ?? `file-${i}`;
      if (!/^[\w.-]{1,128}$/.test(name) || name.startsWith('.'))
        throw new EngineError(`the trainer answered with an invalid file name: outputs.${i}.name`);
      stored.push(await putModelFile(ctx.store, prefix, name, decoded.bytes, decoded.mimeType));
    }
    const statistics =
      answer.output && typeof answer.output === 'object' && !Array.isArray(answer.output)
        ? (answer.output as Record<string, unknown>)
        : undefined;
    return {
      outputs: [],
      extra: {
        engine: 'http',
        model: { trainer: 'http', files: stored, ...(statistics ? { statistics } : {}) },
      },
    };
  }

  private async outputs(
    answer: Record<string, unknown>,
    job: EngineJob,
    ctx: EngineContext,
    images: Map<string, { assetId?: string }>,
  ): Promise<EngineResult> {
    const files = answer.outputs === undefined ? [] : answer.outputs;
    if (!Array.isArray(files) || files.length > MAX_JOB_OUTPUTS)
      throw new EngineError(
        `the inference server answered with an invalid body: outputs must be a list of at most ${MAX_JOB_OUTPUTS} files`,
      );
    if (files.length === 0 && !isResultMode(job.mode) && job.mode !== 'custom') {
      throw new EngineError(`the inference server answered with no output files for ${job.mode}`);
    }
    // The request's input picture (as the preview engine reads it): its asset, else imageParentId.
    const picture = INPUT_PICTURE_FIELDS.find((field) => typeof job.input[field] === 'string');
    const defaultParent =
      (picture ? images.get(picture)?.assetId : undefined) ?? str(job.input.imageParentId);
    const outputs: StoredOutput[] = [];
    const maxBytes = this.settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    for (const [i, file] of (files as ServerOutput[]).entries()) {
      const encoded = encodedFile(file, i);
      const what = `output ${i + 1}`;
      const parentAssetId = str(file.parentAssetId) ?? defaultParent;
      outputs.push(
        await storeBackendFile(ctx, LABEL, job.mode, {
          what,
          chunks: base64Chunks(encoded.base64, maxBytes, (size) => tooLarge(LABEL, what, size, maxBytes, LIMIT_SETTING)),
          declared: encoded.mimeType,
          file: {
            assetType: str(file.assetType) ?? outputAssetType(job.mode),
            ...(parentAssetId ? { parentAssetId } : {}),
            metadata:
              file.metadata && typeof file.metadata === 'object' && !Array.isArray(file.metadata)
                ? (file.metadata as Record<string, unknown>)
                : {},
          },
        }),
      );
    }
    const extra =
      answer.output && typeof answer.output === 'object' && !Array.isArray(answer.output)
        ? (answer.output as Record<string, unknown>)
        : {};
    return { outputs, extra: { ...extra, engine: 'http' } };
  }
}

function parseAnswer(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new EngineError('the inference server answered with an invalid body: expected a JSON object');
}

/** An output file of the answer as it came: its declared type and base64 text, checked but not decoded. */
function encodedFile(file: ServerOutput, index: number): { base64: string; mimeType: string } {
  const data = str(file.data);
  if (!data)
    throw new EngineError(
      `the inference server answered with an invalid body: outputs.${index}.data is missing`,
    );
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(data);
  const mimeType = match?.[1] ?? str(file.mimeType);
  const base64 = match?.[2] ?? data;
  if (!mimeType || !/^[\w.+-]+\/[\w.+-]+$/.test(mimeType))
    throw new EngineError(
      `the inference server answered with an invalid body: outputs.${index}.mimeType is missing`,
    );
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64.replace(/\s/g, '')))
    throw new EngineError(
      `the inference server answered with an invalid body: outputs.${index}.data is not base64`,
    );
  if (base64.replace(/\s/g, '').length === 0)
    throw new EngineError(
      `the inference server answered with an invalid body: outputs.${index}.data is empty`,
    );
  return { base64, mimeType };
}

/** A trained model's file, decoded whole (model files are not assets: they go to the model's storage as they are). */
function decodeFile(file: ServerOutput, index: number): { bytes: Buffer; mimeType: string } {
  const { base64, mimeType } = encodedFile(file, index);
  return { bytes: Buffer.from(base64, 'base64'), mimeType };
}

/** The server's own error message (`error` or `message` of a JSON body), short and single-line. */
function serverMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const message =
      str(parsed.error) ??
      str(parsed.message) ??
      str((parsed.error as Record<string, unknown> | undefined)?.message);
    return message ? message.replace(/\s+/g, ' ').slice(0, 300) : '';
  } catch {
    return '';
  }
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

