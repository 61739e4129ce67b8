import { describeBackend, OPENAI_ROUTES, type OpenaiBackendConfig } from '@genasset/config';
import { Slots, type ServerEngine } from '../backend-engine';
import { BackendHttp } from '../backend/backend-http';
import { EngineAborted, EngineError, type EngineContext, type EngineJob, type EngineResult } from '../engine';
import { str } from '../image/params';
import { openaiChat } from './openai-chat';
import { openaiImages } from './openai-images';

/**
 * Runs routes on an OpenAI-compatible server (docs/backends/openai.md): images through
 * /images/generations and /images/edits, embeddings through /embeddings, the language modes through
 * /chat/completions with the images as data URLs. The API is synchronous, so the plain one-call
 * `run` is all there is (a job run again calls again): within the backend's concurrency limit, each
 * call within `timeouts.request`, the whole job within `timeouts.job`, 429 waited out as the
 * server's retry-after asks (bounded), then left to the work queue's retries.
 */
export class OpenaiEngine implements ServerEngine {
  readonly kind = 'sync-backend' as const;
  readonly type = 'openai';
  readonly name: string;
  readonly http: BackendHttp;
  private readonly slots: Slots;

  constructor(readonly config: OpenaiBackendConfig) {
    this.name = config.name;
    this.http = new BackendHttp({
      label: `the openai backend ${config.name}`,
      url: config.url,
      headers: config.headers,
      requestTimeoutMs: config.timeouts.request,
      rateLimit: { retries: config.rateLimit.retries, maxWaitMs: config.rateLimit.maxWait },
      message: openaiMessage,
    });
    this.slots = new Slots(config.concurrency);
  }

  supports(route: string): boolean {
    return this.config.routes.includes(route) && route in OPENAI_ROUTES;
  }

  async run(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    const release = await this.slots.acquire(ctx.signal).catch(() => {
      throw new EngineAborted();
    });
    // From here the job waits on the server (its concurrency is the limit), not on this process.
    ctx.waiting?.();
    const deadline = AbortSignal.timeout(this.config.timeouts.job);
    const signal = AbortSignal.any([ctx.signal, deadline]);
    try {
      const extra = { engine: this.type, backend: this.name };
      switch (OPENAI_ROUTES[job.mode]) {
        case 'image':
          return { outputs: await openaiImages(this.http, this.config, job, ctx, signal), extra };
        case 'embedding':
          return { outputs: [], extra: { embedding: await this.embed(str(job.input.text) ?? '', signal), ...extra } };
        case 'chat':
          return { outputs: [], extra: { ...(await openaiChat(this.http, this.config, job, ctx, signal)), ...extra } };
        default:
          throw new EngineError(`the openai backend ${this.name} cannot run ${job.mode}`);
      }
    } catch (error) {
      if (error instanceof EngineAborted && deadline.aborted && !ctx.signal.aborted)
        throw new EngineError(`${this.http.label} did not finish ${job.mode} within ${Math.round(this.config.timeouts.job / 1000)} s`);
      throw error;
    } finally {
      release();
    }
  }

  /** POST /embeddings {model, input} → data[0].embedding (TEI and vLLM serve it too). */
  async embed(text: string, signal: AbortSignal): Promise<number[]> {
    if (!text.trim()) throw new EngineError('embed needs a text');
    const call = 'POST /embeddings';
    const answer = await this.http.json(call, 'embeddings', {
      method: 'POST',
      body: JSON.stringify({ model: this.config.models.embedding, input: text, encoding_format: 'float' }),
      signal,
    });
    const embedding = (answer as { data?: { embedding?: unknown }[] })?.data?.[0]?.embedding;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((v) => typeof v === 'number' && Number.isFinite(v)))
      throw this.http.invalid(call, 'no data[0].embedding of numbers');
    return embedding as number[];
  }

  /** Reachable, and every model the routes need listed by GET /models (servers that list none are taken at their word). */
  async problems(): Promise<string[]> {
    const answer = await this.http.json('GET /models', 'models');
    const listed = (answer as { data?: { id?: unknown }[] })?.data?.map((m) => m?.id).filter((id) => typeof id === 'string') ?? [];
    if (!listed.length) return [];
    const needed = [...new Set([...this.config.routes.map((r) => this.config.models[OPENAI_ROUTES[r]]), this.config.models.searchEmbedding].filter((m): m is string => !!m))];
    const missing = needed.filter((m) => !listed.includes(m));
    return missing.length ? [`models not served: ${missing.join(', ')}`] : [];
  }

  get description(): string {
    return describeBackend(this.config);
  }

  get checkTimeoutMs(): number {
    return Math.min(this.config.timeouts.request, 10_000);
  }
}

/** The words of an OpenAI error body `{error: {message, type, code}}`: `message [code]`, one line, 300 characters. */
export function openaiMessage(text: string): string {
  try {
    const { error } = JSON.parse(text) as { error?: { message?: unknown; type?: unknown; code?: unknown } | string };
    if (typeof error === 'string') return error.slice(0, 300);
    if (error && typeof error.message === 'string') {
      const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
      return `${error.message.replace(/\s+/g, ' ').trim().slice(0, 300)}${code ? ` [${code}]` : ''}`;
    }
  } catch {
    // not JSON
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
