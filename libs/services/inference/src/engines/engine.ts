import type { GenerationMode, JobTenantData, JobType, ModeJobInput } from '@genasset/contracts';
import type { ObjectStore } from '@genasset/storage';

/**
 * The generation job an engine runs: the request as job-service holds it (images as asset ids or
 * storage keys). Its input is plain JSON here, for engines that take any mode (and training and
 * exports); a job of one mode reads it typed ({@link ModeJob}).
 */
export interface EngineJob {
  jobId: string;
  jobType: JobType;
  /** The generation mode (`input.generationMode`): txt2img, pixelate, detect… (or model-training, model-download) */
  mode: string;
  tenant: JobTenantData;
  input: Record<string, unknown>;
  modelId?: string;
  /** 1 for the first run of the job, higher when a crash or transient failure made it run again. */
  attempt: number;
}

/**
 * A job of mode `M`, its input typed by the mode table: the validated request (validated once, by
 * the generate route, with the table's rules) and what generation-service added to it.
 */
export type ModeJob<M extends GenerationMode> = Omit<EngineJob, 'mode' | 'input'> & { mode: M; input: ModeJobInput<M> };

/** The job as a job of `mode`; undefined for a job of another mode. */
export function jobOf<M extends GenerationMode>(job: EngineJob, mode: M): ModeJob<M> | undefined {
  // The work item's mode is the job's `input.generationMode`, and the route validated the input for it.
  return job.mode === mode ? (job as unknown as ModeJob<M>) : undefined;
}

/** An input image, read from object storage. */
export interface InputImage {
  bytes: Buffer;
  mimeType: string;
  /** Set when the request named the image by asset id: outputs derive from it. */
  assetId?: string;
  /** The request field it came from (`image`, `styleImages.1`), for error messages. */
  field: string;
}

/** One output file an engine hands over: bytes plus what asset it becomes. */
export interface OutputFile {
  bytes: Buffer;
  mimeType: string;
  /** The spec's asset type (pixelization, texture-normal, inference-txt2img…). */
  assetType: string;
  /** The input asset it derives from (asset-service resolves the root). */
  parentAssetId?: string;
  name?: string;
  /** Kept on the asset as metadata; `engine` and `mode` are added by the runner. */
  metadata?: Record<string, unknown>;
}

/** One output an engine streams from its backend ({@link EngineContext.writeOutputStream}): never held whole. */
export interface OutputStream {
  file: Omit<OutputFile, 'bytes' | 'mimeType'>;
  /** The bytes as they arrive; throws to stop (a size limit passed, the backend gone). */
  chunks: AsyncIterable<Buffer>;
  /** The output's media type from its first bytes (up to 4 KiB); throws an EngineError for what the mode cannot take. */
  type(head: Buffer): string;
}

/** What {@link EngineContext.writeOutput} stored: the claim-check descriptor of one output. */
export interface StoredOutput {
  index: number;
  key: string;
  mimeType: string;
  assetType: string;
  parentAssetId?: string;
  name?: string;
  metadata: Record<string, unknown>;
}

/** What the runner gives an engine: inputs, output storage, progress and cancellation. */
export interface EngineContext {
  /**
   * Reads the image a request field refers to (asset id or stored-input key),
   * e.g. `readInput(job.input.image, 'image')`.
   * @throws EngineError when it does not exist, is not the tenant's, or is not an image
   */
  readInput(reference: unknown, field: string): Promise<InputImage>;
  /** Stores one output (key `jobs/<jobId>/<attempt>/<index>.<ext>`) and returns its descriptor. */
  writeOutput(file: OutputFile): Promise<StoredOutput>;
  /** Streams one output into storage (same keys); absent where outputs are changed before storing (learned colours). */
  writeOutputStream?(output: OutputStream): Promise<StoredOutput>;
  /** How far the engine is, 0–1 (reported as job progress, throttled). */
  progress(fraction: number): Promise<void>;
  /** Aborted when the job is canceled or the worker shuts down: stop as soon as you can. */
  signal: AbortSignal;
  /** Object storage, for work whose files are not assets (trained model files, archives). */
  store?: ObjectStore;
  /**
   * The job now only waits on a remote server that bounds its own concurrency (an OpenAI-compatible
   * server's answer, a submitted backend task): the worker's slot (`INFERENCE_CONCURRENCY`) goes to
   * another job while this one runs on. Called once the backend's own slot is the job's.
   */
  waiting?(): void;
}

/** What an engine produced: stored outputs (become assets) and fields for the job's `output`. */
export interface EngineResult {
  outputs: StoredOutput[];
  /** Result fields of text modes (captions, embedding…) and extras (albedoAssetId…). */
  extra?: Record<string, unknown>;
}

/** One way of running modes: image (sharp), preview (placeholders), http (an inference server). */
export interface Engine {
  readonly name: string;
  /** Whether the engine can run this route: a mode (`pixelate`) or a mode variant (`detect:depth`). */
  supports(route: string): boolean;
  run(job: EngineJob, ctx: EngineContext): Promise<EngineResult>;
}

/**
 * A failure the client can act on (bad input, a mode the engine cannot run,
 * an inference server refusing the request): the job fails at once with
 * `message` as its reason, without retry. Any other error is treated as
 * transient and the job is retried a few times before it fails.
 */
export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }
}

/** Thrown when the job's signal was aborted (cancel or shutdown): nothing is reported. */
export class EngineAborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'EngineAborted';
  }
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new EngineAborted();
}
