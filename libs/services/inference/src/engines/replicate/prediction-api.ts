import type { ReplicateBackendConfig } from '@genasset/config';
import type { BackendCallbacks } from '../../callbacks/backend-callbacks';
import type { BackendHttp } from '../backend/backend-http';

/** A prediction as Cog and Replicate describe it (cog docs/http.md; Replicate's HTTP API "predictions.get"). */
export interface Prediction {
  id: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
  input?: Record<string, unknown>;
  output?: unknown;
  error?: unknown;
  logs?: string | null;
  webhook?: string | null;
  version?: string;
  model?: string;
}

export const FINAL = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

/** Pages of GET /v1/predictions (100 a page, newest first) searched for a lost submission. */
const FIND_PAGES = 5;

export function asPrediction(http: BackendHttp, call: string, body: unknown): Prediction {
  const p = body as Partial<Prediction> | undefined;
  if (!p || typeof p !== 'object' || typeof p.status !== 'string') throw http.invalid(call, 'no prediction status');
  return p as Prediction;
}

/** The calls of Replicate's HTTP API (hosted): create, get, list, cancel. */
export class ReplicateApi {
  constructor(
    readonly http: BackendHttp,
    private readonly config: ReplicateBackendConfig,
    private readonly callbacks: BackendCallbacks,
  ) {}

  /**
   * The webhook a prediction carries: our callback route, its path naming the submission (the
   * marker found after a crash), its query signed for the job (when callbacks are on).
   */
  webhookFor(submission: string, jobId: string): string {
    return this.callbacks.url(this.config.callbackUrl, this.config.name, submission, jobId, this.config.timeouts.job);
  }

  /**
   * POST /predictions {version} for a pinned version, else POST /models/{owner}/{name}/predictions
   * (the model's latest). `ref` is the route's model unless the job names another (a version a
   * training made).
   */
  async create(ref: string, input: Record<string, unknown>, submission: string, jobId: string, signal: AbortSignal): Promise<Prediction> {
    const [model, version] = ref.includes('/') ? ref.split(':') : [undefined, ref];
    const webhook = this.webhookFor(submission, jobId);
    const body = { ...(version ? { version } : {}), input, webhook, webhook_events_filter: ['start', 'completed'] };
    const path = version ? 'predictions' : `models/${model}/predictions`;
    const call = `POST /${path}`;
    return asPrediction(this.http, call, await this.http.json(call, path, { method: 'POST', body: JSON.stringify(body), signal }));
  }

  async get(id: string, signal?: AbortSignal): Promise<Prediction | undefined> {
    const call = 'GET /predictions/{id}';
    const body = await this.http.jsonOrMissing(call, `predictions/${encodeURIComponent(id)}`, { signal });
    return body === undefined ? undefined : asPrediction(this.http, call, body);
  }

  /**
   * Finds the prediction of a submission whose handle was never stored (the worker died between
   * POST /predictions and storing the answer). Replicate has no idempotency key, so the submission
   * is marked in the prediction itself: its webhook URL names it (and the prediction object lists
   * its webhook). Recent pages only:
   * a worker restarts within minutes, and a prediction older than that would have been found by
   * an earlier run.
   */
  async find(submission: string): Promise<Prediction | undefined> {
    let path: string | undefined = 'predictions';
    for (let page = 0; path && page < FIND_PAGES; page++) {
      const body = (await this.http.json('GET /predictions', path)) as { results?: Prediction[]; next?: string | null };
      if (!Array.isArray(body?.results)) throw this.http.invalid('GET /predictions', 'no results');
      const found = body.results.find((p) => typeof p.webhook === 'string' && new URL(p.webhook).pathname.endsWith(`/${submission}`));
      if (found) return found;
      path = body.next ?? undefined;
    }
    return undefined;
  }

  async cancel(id: string): Promise<void> {
    await this.http.call('POST /predictions/{id}/cancel', `predictions/${encodeURIComponent(id)}/cancel`, { method: 'POST' }, [404]);
  }
}
