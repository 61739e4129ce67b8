import type { CogBackendConfig } from '@genasset/config';
import { MAX_JOB_OUTPUTS } from '@genasset/contracts';
import { BackendHttp } from '../backend/backend-http';
import { inlineAnswerBytes } from '../backend/backend-outputs';
import { asPrediction, type Prediction } from './prediction-api';

/**
 * The calls of a Cog container (cog docs/http.md; crates/coglet/src/transport/http/routes.rs).
 * Cog keeps no history: it knows a prediction only while it runs, and `PUT /predictions/{id}` is
 * its idempotent form — the same id while it runs answers that prediction (202), never a second
 * one. So the worker submits with its submission id as the prediction id, and a restarted worker
 * asks again with the same PUT.
 */
export class CogApi {
  constructor(
    readonly http: BackendHttp,
    private readonly config: CogBackendConfig,
  ) {}

  /**
   * PUT /predictions/{id} {id, input, webhook?}: with `Prefer: respond-async` Cog answers 202 at
   * once (the webhook gets the rest), without it the call is held until the prediction ends.
   */
  async put(
    submission: string,
    input: Record<string, unknown>,
    options: { async: boolean; webhook?: string; signal: AbortSignal },
  ): Promise<Prediction> {
    const call = 'PUT /predictions/{id}';
    const body = {
      id: submission,
      input,
      ...(options.webhook ? { webhook: options.webhook, webhook_events_filter: ['start', 'logs', 'completed'] } : {}),
    };
    const http = options.async ? this.http : this.held;
    const answer = await http.json(call, `predictions/${encodeURIComponent(submission)}`, {
      method: 'PUT',
      body: JSON.stringify(body),
      headers: options.async ? { prefer: 'respond-async' } : {},
      signal: options.signal,
    }, this.answerLimit(input));
    return asPrediction(this.http, call, answer);
  }

  /** A final answer carries the outputs as data URLs: read to at most the files asked for (num_outputs, else 1) at maxOutputBytes. */
  private answerLimit(input: Record<string, unknown>): number {
    const files = typeof input.num_outputs === 'number' ? Math.min(input.num_outputs, MAX_JOB_OUTPUTS) : 1;
    return inlineAnswerBytes(this.config.maxOutputBytes, files);
  }

  /** 404 when the container does not run it (finished, or never started): nothing to stop. */
  async cancel(id: string): Promise<void> {
    await this.http.call('POST /predictions/{id}/cancel', `predictions/${encodeURIComponent(id)}/cancel`, { method: 'POST' }, [404]);
  }

  /** GET /health-check → {status: STARTING | READY | BUSY | SETUP_FAILED | DEFUNCT | UNHEALTHY}. */
  async health(): Promise<string> {
    const body = (await this.http.json('GET /health-check', 'health-check')) as { status?: unknown };
    if (typeof body?.status !== 'string') throw this.http.invalid('GET /health-check', 'no status');
    return body.status;
  }

  /** The same client with the job's timeout per call: a synchronous PUT is held until the prediction ends. */
  private get held(): BackendHttp {
    return new BackendHttp({ ...this.http.settings, requestTimeoutMs: this.config.timeouts.job });
  }
}
