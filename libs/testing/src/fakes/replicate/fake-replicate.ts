/**
 * A fake of Replicate's HTTP API (api.replicate.com/v1), for tests.
 *
 * Follows Replicate's HTTP API reference (replicate.com/docs/reference/http: predictions.create,
 * models.predictions.create, predictions.get, predictions.list, predictions.cancel, account.get;
 * trainings.create `POST /v1/models/{owner}/{name}/versions/{version_id}/trainings` with
 * `destination`, `input`, `webhook`, `webhook_events_filter`, trainings.get, trainings.list,
 * trainings.cancel — a training is a prediction-like object whose `output` on success is
 * `{version, weights}`, the destination's new version; files.create `POST /v1/files`, multipart
 * `content`, answering `{id, urls: {get}}`; replicate.com/docs/topics/webhooks/setup-webhook
 * "Webhooks for trainings": the same webhooks as predictions)
 * and its webhook docs (replicate.com/docs/topics/webhooks: the body is the prediction object;
 * `webhook_events_filter`; verification: Standard Webhooks headers `webhook-id`,
 * `webhook-timestamp` (seconds), `webhook-signature` = `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body` under the base64 key after `whsec_`), and github.com/replicate/cog @
 * 6110c912377d4ded0f57165d305821a14a9a4418 docs/http.md for the prediction object itself. Read, not
 * copied. Predictions get server-chosen ids (there is no idempotency key); outputs are URLs this
 * fake serves under /files (deleted after `expire()`, as Replicate deletes them after an hour).
 * A training's new version is `<destination>:<64 hex>`, listed in `versions` (a prediction on it
 * is then a prediction of the trained model); `uploads` holds the files POSTed to /v1/files.
 *
 * Failure modes with `fail(...)`: as FakeCog (`down`, `http-4xx`, `http-5xx`, `malformed`,
 * `never-ends`, `prediction-fails`). `post(...)` sends a callback (forged, or `webhooks[i]` replayed).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeServer } from '../fake-server';
import type { SentWebhook } from '../cog/fake-cog';
import { FakePredictions, send, type FakePrediction, type FakePredictionFailure, type FakePredictionsOptions } from '../cog/fake-predictions';

export interface FakeReplicateOptions extends FakePredictionsOptions {
  /** The API token `Authorization: Bearer` must carry. */
  token: string;
  /** The webhook signing secret (`whsec_…`, what GET /v1/webhooks/default/secret answers). */
  webhookSecret?: string;
}

export class FakeReplicate {
  readonly predictions: FakePredictions;
  readonly trainings: FakePredictions;
  /** Versions trainings made: `owner/name:<version>`. */
  readonly versions: string[] = [];
  /** Files uploaded with POST /v1/files, by id. */
  readonly uploads = new Map<string, { name: string; type: string; bytes: Buffer }>();
  readonly requests: { method: string; path: string; authorization?: string; body: Record<string, unknown> }[] = [];
  readonly webhooks: SentWebhook[] = [];
  readonly webhookSecret: string;
  private readonly files = new Map<string, Buffer>();

  private constructor(
    private readonly server: FakeServer,
    readonly options: FakeReplicateOptions,
  ) {
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString('base64')}`;
    this.predictions = new FakePredictions(
      options,
      (id, i, png) => {
        this.files.set(`/files/${id}/out-${i}.png`, png);
        return `${this.origin}/files/${id}/out-${i}.png`;
      },
      (p) => {
        if (p.webhook) void this.post(p.webhook, JSON.stringify(p));
      },
    );
    this.trainings = new FakePredictions(
      options,
      () => '',
      (t) => {
        if (t.webhook) void this.post(t.webhook, JSON.stringify(this.trainingView(t)));
      },
      (t) => {
        const version = `${t.destination}:${createHash('sha256').update(t.id).digest('hex')}`;
        this.versions.push(version);
        return Promise.resolve({ version, weights: `${this.origin}/files/${t.id}/weights.tar` });
      },
    );
  }

  static async start(options: FakeReplicateOptions): Promise<FakeReplicate> {
    const server = new FakeServer();
    const fake = new FakeReplicate(server, options);
    await server.listen((req, res) => fake.handle(req, res));
    return fake;
  }

  get origin(): string {
    return this.server.origin;
  }

  /** The API base URL, with its version (what a backends file names). */
  get url(): string {
    return `${this.origin}/v1`;
  }

  fail(mode: FakePredictionFailure | undefined): void {
    this.predictions.failure = mode;
    this.trainings.failure = mode;
  }

  /** Output files are gone (Replicate deletes them after an hour). */
  expire(): void {
    this.files.clear();
  }

  /** Standard Webhooks headers for a body, signed with `secret` (the fake's own unless forging). */
  sign(body: string, secret = this.webhookSecret, id = `msg_${randomBytes(8).toString('hex')}`, at = Math.floor(Date.now() / 1000)): Record<string, string> {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const signature = createHmac('sha256', key).update(`${id}.${at}.${body}`).digest('base64');
    return { 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': `v1,${signature}` };
  }

  /** POSTs a callback, signed as Replicate signs unless `headers` are given (a forgery), remembering it. */
  async post(url: string, body: string, headers?: Record<string, string>): Promise<SentWebhook> {
    const sent: SentWebhook = { url, headers: { 'content-type': 'application/json', ...(headers ?? this.sign(body)) }, body };
    this.webhooks.push(sent);
    sent.status = await fetch(url, { method: 'POST', headers: sent.headers, body }).then((r) => r.status, () => 0);
    return sent;
  }

  async close(): Promise<void> {
    this.predictions.close();
    this.trainings.close();
    await this.server.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const multipart = String(req.headers['content-type'] ?? '').startsWith('multipart/form-data');
    const raw = req.method === 'POST' ? await readRaw(req) : Buffer.alloc(0);
    const body: Record<string, unknown> = multipart ? {} : parseJson(raw);
    this.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    const failure = this.predictions.failure;
    if (failure === 'down') return void req.socket.destroy();
    const file = this.files.get(path);
    if (req.method === 'GET' && path.startsWith('/files/'))
      return file ? void res.writeHead(200, { 'content-type': 'image/png', 'content-length': file.length }).end(file) : send(res, 404, { detail: 'Not found.' });
    if (req.headers.authorization !== `Bearer ${this.options.token}`)
      return send(res, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 });
    if (failure === 'http-5xx') return send(res, 500, { detail: 'Internal server error' });
    if (failure === 'malformed') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
    if (req.method === 'GET' && path === '/v1/account') return send(res, 200, { type: 'user', username: 'genasset-test' });
    const model = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(path);
    if (req.method === 'POST' && (path === '/v1/predictions' || model)) {
      if (failure === 'http-4xx' || (!model && typeof body.version !== 'string'))
        return send(res, 422, { title: 'Input validation failed', detail: '- input.prompt: Does not match pattern', status: 422 });
      const id = randomBytes(16).toString('hex').slice(0, 26);
      const extra: Partial<FakePrediction> = model ? { model: model[1] } : { version: String(body.version) };
      if (typeof body.webhook === 'string') extra.webhook = body.webhook;
      return send(res, 201, this.view(this.predictions.create(id, (body.input as Record<string, unknown>) ?? {}, extra)));
    }
    if (req.method === 'POST' && path === '/v1/files') return this.upload(raw, String(req.headers['content-type']), res);
    const trainer = /^\/v1\/models\/([^/]+\/[^/]+)\/versions\/([^/]+)\/trainings$/.exec(path);
    if (req.method === 'POST' && trainer) return this.train(trainer[1], trainer[2], body, res);
    if (req.method === 'GET' && path === '/v1/trainings')
      return send(res, 200, { previous: null, next: null, results: [...this.trainings.created].reverse().map((t) => this.trainingView(t)) });
    const training = /^\/v1\/trainings\/([^/]+)(\/cancel)?$/.exec(path);
    if (training) {
      const found = this.trainings.all.get(training[1]);
      if (!found) return send(res, 404, { title: 'Not found', detail: 'Not found.', status: 404 });
      if (req.method === 'GET' && !training[2]) return send(res, 200, this.trainingView(found));
      if (req.method === 'POST' && training[2]) return send(res, 200, this.trainingView(this.trainings.cancel(found.id)!));
    }
    if (req.method === 'GET' && path === '/v1/predictions') {
      const results = [...this.predictions.created].reverse().map((p) => this.view(p));
      return send(res, 200, { previous: null, next: null, results });
    }
    const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    const prediction = one && this.predictions.all.get(one[1]);
    if (one && !prediction) return send(res, 404, { title: 'Not found', detail: 'Not found.', status: 404 });
    if (req.method === 'GET' && prediction && !one![2]) return send(res, 200, this.view(prediction));
    if (req.method === 'POST' && prediction && one![2]) return send(res, 200, this.view(this.predictions.cancel(prediction.id)!));
    send(res, 404, { detail: 'Not found.' });
  }

  /** POST /v1/files: multipart `content` → the file object, its `urls.get` under /v1/files/{id}. */
  private async upload(raw: Buffer, contentType: string, res: ServerResponse): Promise<void> {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData().catch(() => undefined);
    const content = form?.get('content');
    if (!content || typeof content === 'string') return send(res, 400, { title: 'Bad request', detail: 'content: a file is required', status: 400 });
    const id = randomBytes(12).toString('hex');
    const bytes = Buffer.from(await content.arrayBuffer());
    this.uploads.set(id, { name: content.name, type: content.type, bytes });
    send(res, 201, {
      id,
      name: content.name,
      content_type: content.type,
      size: bytes.length,
      checksums: { sha256: createHash('sha256').update(bytes).digest('hex') },
      created_at: new Date().toISOString(),
      urls: { get: `${this.url}/files/${id}` },
    });
  }

  /** trainings.create: a trainer's pinned version, an `owner/name` destination, an input object. */
  private train(model: string, version: string, body: Record<string, unknown>, res: ServerResponse): void {
    const destination = typeof body.destination === 'string' ? body.destination : '';
    if (this.trainings.failure === 'http-4xx' || !/^[0-9a-f]{64}$/.test(version) || !/^[^/]+\/[^/]+$/.test(destination))
      return send(res, 422, { title: 'Invalid training', detail: 'destination: the model does not exist or is not yours', status: 422 });
    const id = randomBytes(16).toString('hex').slice(0, 26);
    const extra: Partial<FakePrediction> = { model, version, destination };
    if (typeof body.webhook === 'string') extra.webhook = body.webhook;
    send(res, 201, this.trainingView(this.trainings.create(id, (body.input as Record<string, unknown>) ?? {}, extra)));
  }

  private trainingView(t: FakePrediction): Record<string, unknown> {
    return { ...t, urls: { get: `${this.url}/trainings/${t.id}`, cancel: `${this.url}/trainings/${t.id}/cancel` } };
  }

  private view(p: FakePrediction): Record<string, unknown> {
    return { ...p, urls: { get: `${this.url}/predictions/${p.id}`, cancel: `${this.url}/predictions/${p.id}/cancel` } };
  }
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    return raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
