import { MODE_ROUTES } from '@genasset/contracts';
import { loadBackendsFile, type BackendConfig } from '@genasset/config';
import type { InferenceConfig } from '../inference.config';
import type { Engine } from './engine';
import { EngineRegistry, parseEngineOverrides } from './engine-registry';
import { ComfyuiEngine } from './comfyui/comfyui.engine';
import { OpenaiEngine } from './openai/openai.engine';
import { ReplicateEngine } from './replicate/replicate.engine';
import { BackendCallbacks } from '../callbacks/backend-callbacks';
import { HttpEngine } from './http/http.engine';
import { ImageEngine } from './image/image.engine';
import { RASTER_LIMITS } from './image/raster';
import { PreviewEngine } from './preview/preview.engine';
import { TextEngine } from './text/text.engine';

/**
 * The engines of this process and which runs what, from the validated configuration: the routes
 * each backend of INFERENCE_BACKENDS_FILE lists go to it, and INFERENCE_ENGINES (the short form)
 * applies over them.
 */
export function createEngineRegistry(
  config: InferenceConfig,
  env: NodeJS.ProcessEnv = process.env,
  backends: readonly BackendConfig[] = config.INFERENCE_BACKENDS_FILE ? loadBackendsFile(config.INFERENCE_BACKENDS_FILE, env) : [],
  /** Where backend callbacks are signed and handed over (the module's; a fresh one in tools and tests). */
  callbacks = new BackendCallbacks(config.INFERENCE_CALLBACK_SECRET),
): EngineRegistry {
  RASTER_LIMITS.maxPixels = config.INFERENCE_MAX_PIXELS;
  const preview = new PreviewEngine();
  // The text engine gives what needs a model (inventive prompts…) to preview only where preview is the default.
  const engines: Engine[] = [
    new ImageEngine(),
    new TextEngine(previewByDefault(config) ? preview : undefined),
    preview,
  ];
  if (config.INFERENCE_HTTP_URL) {
    engines.push(
      new HttpEngine({
        url: config.INFERENCE_HTTP_URL,
        token: config.INFERENCE_HTTP_TOKEN,
        timeoutMs: config.INFERENCE_HTTP_TIMEOUT,
        retries: config.INFERENCE_HTTP_RETRIES,
        retryDelayMs: config.INFERENCE_HTTP_RETRY_DELAY,
        maxOutputBytes: config.INFERENCE_HTTP_MAX_OUTPUT_BYTES,
      }),
    );
  }
  const overrides = new Map<string, string>();
  for (const backend of backends) {
    engines.push(
      backend.type === 'comfyui'
        ? new ComfyuiEngine(backend)
        : backend.type === 'openai'
          ? new OpenaiEngine(backend)
          : new ReplicateEngine(backend, callbacks),
    );
    for (const route of backend.routes) overrides.set(route, backend.name);
  }
  for (const [route, engine] of parseEngineOverrides(
    config.INFERENCE_ENGINES,
    backends.map((b) => b.name),
  ))
    overrides.set(route, engine);
  return new EngineRegistry(engines, overrides, previewByDefault(config));
}

/** Preview for model-only modes: on when asked, off when asked; `auto` = on unless a production process with its own database. */
export function previewByDefault(
  config: Pick<InferenceConfig, 'INFERENCE_PREVIEW' | 'NODE_ENV' | 'DATABASE_URL'>,
): boolean {
  if (config.INFERENCE_PREVIEW !== 'auto') return config.INFERENCE_PREVIEW === 'on';
  return config.NODE_ENV !== 'production' || !config.DATABASE_URL;
}

/** Every route, for the start-up log: each mode, detect split by modality. */
export const ALL_ROUTES: readonly string[] = MODE_ROUTES;
