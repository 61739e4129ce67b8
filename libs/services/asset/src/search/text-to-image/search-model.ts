import { Inject, Injectable, Logger } from '@nestjs/common';
import { BACKENDS_VARIABLE, isSearchEmbeddingBackend, loadBackendsFile, PROCESS_ENV, searchEmbeddingBackend, type SearchEmbeddingBackend } from '@genasset/config';
import { errorMessage } from '@genasset/contracts';

/** The search embedding model of INFERENCE_BACKENDS_FILE (undefined: none configured, text-to-image search is off). */
export const SEARCH_MODEL_CONFIG = Symbol('SEARCH_MODEL_CONFIG');

/**
 * Reads INFERENCE_BACKENDS_FILE as the inference worker does (the same loader and schema, so the
 * same file is refused for the same reasons, each naming its path in the file) and keeps the
 * openai backend naming `models.searchEmbedding`. Absent variable, or no such backend: undefined.
 * Only that backend's credential variables are needed here (the worker's other keys are not).
 */
export function loadSearchModelConfig(env: NodeJS.ProcessEnv): SearchEmbeddingBackend | undefined {
  const path = env[BACKENDS_VARIABLE];
  return path ? searchEmbeddingBackend(loadBackendsFile(path, env, { secretsOf: isSearchEmbeddingBackend })) : undefined;
}

export const searchModelConfigProvider = {
  provide: SEARCH_MODEL_CONFIG,
  useFactory: (env: NodeJS.ProcessEnv) => loadSearchModelConfig(env),
  inject: [PROCESS_ENV],
};

/**
 * Why a call to the search model failed. `transient`: unreachable, timed out, 5xx, 408, 429, or a
 * refusal that is the configuration's (401, 403, 404) — try again later; `refused`: the server
 * refused these inputs (400, 413, 422: an image it cannot read); `invalid`: an answer that is not
 * an embeddings list of the inputs' length.
 */
export class SearchModelError extends Error {
  constructor(
    message: string,
    readonly kind: 'transient' | 'refused' | 'invalid',
    /** What the server asked for with `retry-after`, ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'SearchModelError';
  }
}

/** Pictures sent per call (Infinity takes at most 32 image URIs a call: its ITEMS_LIMIT_SMALL). */
export const IMAGES_PER_CALL = 16;

/** A small least-recently-used map (recent query vectors). */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Scales to unit length (stored and query vectors alike, so the dot product is the cosine); undefined for a zero vector. */
export function unitLength(v: readonly number[]): number[] | undefined {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm > 0 && Number.isFinite(norm) ? v.map((x) => x / norm) : undefined;
}

/**
 * Reads an OpenAI-style embeddings answer `{data: [{embedding, index}]}` of `count` inputs, in the
 * inputs' order (by `index`), each scaled to unit length; throws `invalid` for anything else.
 */
export function readEmbeddings(body: unknown, count: number): number[][] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length !== count) throw new SearchModelError(`expected data with ${count} embedding(s)`, 'invalid');
  const out = new Array<number[] | undefined>(count);
  data.forEach((item: { embedding?: unknown; index?: unknown }, i) => {
    const index = typeof item?.index === 'number' ? item.index : i;
    const e = item?.embedding;
    if (!Array.isArray(e) || e.length === 0 || !e.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new SearchModelError(`data[${i}].embedding is not a list of numbers`, 'invalid');
    const unit = unitLength(e as number[]);
    if (!unit) throw new SearchModelError(`data[${i}].embedding is a zero vector`, 'invalid');
    if (index < 0 || index >= count || out[index]) throw new SearchModelError(`data[${i}].index ${String(index)} is not one of the inputs`, 'invalid');
    out[index] = unit;
  });
  const dims = out[0]!.length;
  if (out.some((v) => v!.length !== dims)) throw new SearchModelError('the embeddings differ in length', 'invalid');
  return out as number[][];
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The words of an error body: OpenAI's `{error: {message}}`, FastAPI's `{detail}`, else the text; one line, 300 characters. */
function serverWords(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown };
    const words = typeof body.error === 'string' ? body.error : body.error?.message ?? body.detail;
    if (words !== undefined) return (typeof words === 'string' ? words : JSON.stringify(words)).replace(/\s+/g, ' ').slice(0, 300);
  } catch {
    // not JSON
  }
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

/**
 * The search embedding model's client: `POST {url}/embeddings {model, input, modality, encoding_format}`
 * as Infinity (michaelfeil/infinity) serves CLIP-like models — texts with `modality: "text"`, images
 * as `data:` URIs with `modality: "image"` — answered `{data: [{embedding, index}]}`. One call per
 * batch; no retries here (the embedder backs off, a search answers 503). Recent query vectors are
 * kept (an LRU of 256), so a user paging through a search embeds its text once.
 */
@Injectable()
export class SearchModel {
  private readonly logger = new Logger('SearchModel');
  private readonly queries = new Lru<string, number[]>(256);

  constructor(@Inject(SEARCH_MODEL_CONFIG) readonly config: SearchEmbeddingBackend | undefined) {
    if (config) this.logger.log(`text-to-image search: model ${config.model} of backend ${config.backend}`);
  }

  get model(): string | undefined {
    return this.config?.model;
  }

  /** The unit-length vector of a search's text (modality text), from the LRU when recently asked. */
  async embedQuery(text: string): Promise<number[]> {
    const cached = this.queries.get(text);
    if (cached) return cached;
    const [vector] = await this.embed('text', [text]);
    this.queries.set(text, vector);
    return vector;
  }

  /** Unit-length vectors of images given as `data:` URIs (modality image), in their order: one call; `signal` aborts it (shutdown). */
  embedImages(dataUris: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    return this.embed('image', dataUris, signal);
  }

  private async embed(modality: 'text' | 'image', input: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const config = this.config;
    if (!config) throw new Error('no search embedding model is configured');
    const call = `the search model ${config.model} (backend ${config.backend})`;
    let response: Response;
    try {
      response = await fetch(`${config.url.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers: { ...config.headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ model: config.model, input, modality, encoding_format: 'float' }),
        signal: signal ? AbortSignal.any([AbortSignal.timeout(config.requestTimeoutMs), signal]) : AbortSignal.timeout(config.requestTimeoutMs),
      });
    } catch (error) {
      if (signal?.aborted) throw new SearchModelError(`the call to ${call} was abandoned (shutting down)`, 'transient');
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new SearchModelError(
        timedOut ? `${call} did not answer within ${config.requestTimeoutMs} ms` : `${call} could not be reached (${errorMessage(error)})`,
        'transient',
      );
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      const status = response.status;
      const words = `${call} answered HTTP ${status}: ${serverWords(text)}`;
      const refused = status === 400 || status === 413 || status === 422;
      throw new SearchModelError(words, refused ? 'refused' : 'transient', retryAfterMs(response.headers));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SearchModelError(`${call} answered with an invalid body: expected JSON`, 'invalid');
    }
    try {
      return readEmbeddings(body, input.length);
    } catch (error) {
      throw new SearchModelError(`${call} answered with an invalid body: ${errorMessage(error)}`, 'invalid');
    }
  }
}
