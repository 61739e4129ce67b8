import { loadConfig, vars, z } from '@genasset/config';

/** inference-worker's own settings, validated once at start (docs/engines.md, "Configuration"). */
export const inferenceEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.string().optional(),
  /** Per-mode engines over the defaults: `pixelate=image,txt2img=http,detect:depth=none`. */
  INFERENCE_ENGINES: z.string().default(''),
  /**
   * Whether model-only modes get the preview engine by default: `auto` (on in
   * embedded mode and whenever NODE_ENV is not production, off in production),
   * `on`, `off`. INFERENCE_ENGINES wins over it per mode.
   */
  INFERENCE_PREVIEW: z.enum(['auto', 'on', 'off']).default('auto'),
  /**
   * A JSON or YAML file naming the inference servers (backends) this worker sends work to, and the
   * routes each serves (docs/backends/comfyui.md). Validated at start: errors name their path in the file.
   */
  INFERENCE_BACKENDS_FILE: z.string().optional(),
  /**
   * Signs the callback URLs given to Replicate and Cog (`/v1/backend-callbacks/…`), at least 16
   * characters; absent: predictions carry no callback and are followed by polling alone.
   */
  INFERENCE_CALLBACK_SECRET: z.string().min(16).optional(),
  /** The inference server of the http engine (the exact URL requests are POSTed to). */
  INFERENCE_HTTP_URL: vars.url().optional(),
  /** Sent as `Authorization: Bearer …` to the inference server. */
  INFERENCE_HTTP_TOKEN: z.string().optional(),
  INFERENCE_HTTP_TIMEOUT: vars.duration('120s'),
  /** Retries after the first attempt, for 5xx, 408, 429, timeouts and connection errors. */
  INFERENCE_HTTP_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Delay before the first retry; doubles for each further one. */
  INFERENCE_HTTP_RETRY_DELAY: vars.duration('1s'),
  /** Largest output file taken from the inference server, bytes (as a backend's maxOutputBytes). */
  INFERENCE_HTTP_MAX_OUTPUT_BYTES: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
  /** Jobs one worker process runs at the same time. */
  INFERENCE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** How often an idle worker looks for work it was not notified of. */
  INFERENCE_POLL_INTERVAL: vars.duration('10s'),
  /** A running job whose worker stops renewing this lease is taken over by another worker. */
  INFERENCE_LEASE: vars.duration('60s'),
  /** Runs of one job (crashes and transient failures included) before it fails. */
  INFERENCE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  /** Delay before a job that failed transiently runs again; doubles per attempt. */
  INFERENCE_RETRY_DELAY: vars.duration('5s'),
  /** Largest image (input or output) the image engine handles, in pixels. */
  INFERENCE_MAX_PIXELS: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  /** Finished work items are deleted after this long. */
  INFERENCE_RETENTION: vars.duration('7d'),
  /** Pause after each step of the built-in trainer: 0 in production; demos and tests slow it to watch progress or cancel. */
  INFERENCE_TRAINER_STEP_DELAY: vars.duration('0ms'),
  /** Least time between two progress reports of one job. */
  INFERENCE_PROGRESS_INTERVAL: vars.duration('1s'),
});

export type InferenceConfig = z.infer<typeof inferenceEnv>;

export const INFERENCE_CONFIG = Symbol('INFERENCE_CONFIG');

export function loadInferenceConfig(env: NodeJS.ProcessEnv = process.env): InferenceConfig {
  return loadConfig(inferenceEnv, env);
}
