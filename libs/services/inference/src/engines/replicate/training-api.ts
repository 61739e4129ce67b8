import type { BackendHttp } from '../backend/backend-http';
import { asPrediction, type Prediction } from './prediction-api';

/**
 * A training as Replicate's HTTP API describes it ("trainings.get"): the prediction object's
 * statuses, logs and error, and on success `output: {version, weights}` — the new version of the
 * destination model (`owner/name:<version>`) and a URL of the trained weights.
 */
export type Training = Prediction;

/** A stored handle names a training this way (a prediction's is its bare id): `trainings/<id>`. */
const PREFIX = 'trainings/';

export const trainingHandle = (id: string) => `${PREFIX}${id}`;
/** The training id of a handle, or undefined when the handle is a prediction's. */
export const trainingOf = (handle: string) => (handle.startsWith(PREFIX) ? handle.slice(PREFIX.length) : undefined);

/** Pages of GET /v1/trainings (100 a page, newest first) searched for a lost submission. */
const FIND_PAGES = 5;

/**
 * The training calls of Replicate's HTTP API: upload the training images (files.create), create
 * (`POST /v1/models/{owner}/{name}/versions/{version}/trainings`), get, list, cancel.
 */
export class TrainingApi {
  constructor(readonly http: BackendHttp) {}

  /** POST /v1/files (multipart `content`): the file's `urls.get`, which a training's input may name. */
  async upload(bytes: Buffer, filename: string, contentType: string, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('content', new Blob([new Uint8Array(bytes)], { type: contentType }), filename);
    const body = (await this.http.json('POST /files', 'files', { method: 'POST', body: form, signal })) as { urls?: { get?: unknown } };
    if (typeof body?.urls?.get !== 'string') throw this.http.invalid('POST /files', 'no urls.get');
    return body.urls.get;
  }

  /** `trainer` is `owner/name:<version>` (the backends file checks it). */
  async create(
    trainer: string,
    body: { destination: string; input: Record<string, unknown>; webhook: string },
    signal: AbortSignal,
  ): Promise<Training> {
    const [model, version] = trainer.split(':');
    const path = `models/${model}/versions/${version}/trainings`;
    const call = 'POST /models/{owner}/{name}/versions/{version}/trainings';
    const answer = await this.http.json(call, path, {
      method: 'POST',
      body: JSON.stringify({ ...body, webhook_events_filter: ['start', 'completed'] }),
      signal,
    });
    return asPrediction(this.http, call, answer);
  }

  async get(id: string, signal?: AbortSignal): Promise<Training | undefined> {
    const call = 'GET /trainings/{id}';
    const body = await this.http.jsonOrMissing(call, `trainings/${encodeURIComponent(id)}`, { signal });
    return body === undefined ? undefined : asPrediction(this.http, call, body);
  }

  /** The training whose webhook URL names the submission (see ReplicateApi.find), among recent ones. */
  async find(submission: string): Promise<Training | undefined> {
    let path: string | undefined = 'trainings';
    for (let page = 0; path && page < FIND_PAGES; page++) {
      const body = (await this.http.json('GET /trainings', path)) as { results?: Training[]; next?: string | null };
      if (!Array.isArray(body?.results)) throw this.http.invalid('GET /trainings', 'no results');
      const found = body.results.find((t) => typeof t.webhook === 'string' && new URL(t.webhook).pathname.endsWith(`/${submission}`));
      if (found) return found;
      path = body.next ?? undefined;
    }
    return undefined;
  }

  async cancel(id: string): Promise<void> {
    await this.http.call('POST /trainings/{id}/cancel', `trainings/${encodeURIComponent(id)}/cancel`, { method: 'POST' }, [404]);
  }
}

/**
 * The destination version a succeeded training made, as `owner/name:<version>`: its
 * `output.version` (Replicate gives the full reference; a bare version id is put under the
 * destination).
 */
export function trainedVersion(training: Training, destination: string): string | undefined {
  const version = (training.output as { version?: unknown } | null | undefined)?.version;
  if (typeof version !== 'string' || version === '') return undefined;
  if (/^[^/\s]+\/[^:\s]+:[0-9a-f]{64}$/.test(version)) return version;
  return /^[0-9a-f]{64}$/.test(version) ? `${destination}:${version}` : undefined;
}
