/**
 * A fake Cog container (`cog serve`, port 5000), for tests: no GPU, no Python here.
 *
 * Follows github.com/replicate/cog @ 6110c912377d4ded0f57165d305821a14a9a4418 (read, not copied):
 * - docs/http.md — `PUT /predictions/{id}` is the idempotent form; `Prefer: respond-async` answers
 *   202 at once, without it the call is held until the prediction ends (200 with the prediction);
 *   `POST /predictions/{id}/cancel` (404 when not running); `GET /health-check` {status: READY,
 *   BUSY, SETUP_FAILED, DEFUNCT…}; webhooks POST the prediction object; file outputs as data URLs.
 * - crates/coglet/src/transport/http/routes.rs — create_prediction_idempotent: a body `id` other
 *   than the URL's is 422 `{detail: [{loc, msg, type}]}`; a PUT of an id still in flight answers
 *   202 with that prediction (never a second one); a finished prediction is forgotten (no GET).
 * - crates/coglet/src/webhook.rs — a terminal webhook (`completed`) is retried with exponential
 *   backoff on 429/5xx and connection errors (here: `terminalRetries` times from 100 ms); other
 *   webhooks are sent once.
 *
 * Failure modes per test with `fail(...)`: `down` (connections reset), `http-4xx` (422, input
 * invalid), `http-5xx` (500), `malformed` (200 with an HTML body), `never-ends` (the last step never
 * comes until canceled), `prediction-fails` (status failed with an error). `health` sets the
 * health-check status. `post(...)` sends any callback (a forged one, or a replay of `webhooks[i]`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeServer } from '../fake-server';
import { FakePredictions, isFinal, readJson, send, type FakePrediction, type FakePredictionFailure, type FakePredictionsOptions } from './fake-predictions';

export interface SentWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
  status?: number;
}

export class FakeCog {
  readonly predictions: FakePredictions;
  readonly requests: { method: string; path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
  readonly webhooks: SentWebhook[] = [];
  health = 'READY';

  private constructor(
    private readonly server: FakeServer,
    options: FakePredictionsOptions,
  ) {
    this.predictions = new FakePredictions(
      options,
      (_id, _i, png) => `data:image/png;base64,${png.toString('base64')}`,
      (p) => {
        if (p.webhook) void this.notify(p.webhook, JSON.stringify(p), isFinal(p));
      },
    );
  }

  /** Terminal webhooks are retried this many times (cog: 12); tests of a long outage raise it. */
  terminalRetries = 6;
  private closed = false;

  private async notify(url: string, body: string, terminal: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const sent = await this.post(url, body);
      const retry = sent.status === 0 || sent.status === 429 || (sent.status ?? 0) >= 500;
      if (!terminal || !retry || attempt >= this.terminalRetries || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** Math.min(attempt, 10)));
    }
  }

  static async start(options: FakePredictionsOptions = {}): Promise<FakeCog> {
    const server = new FakeServer();
    const fake = new FakeCog(server, options);
    await server.listen((req, res) => fake.handle(req, res));
    return fake;
  }

  get url(): string {
    return this.server.origin;
  }

  fail(mode: FakePredictionFailure | undefined): void {
    this.predictions.failure = mode;
  }

  /** POSTs a callback as the container does (also a forged one, or a replay), remembering it. */
  async post(url: string, body: string, headers: Record<string, string> = {}): Promise<SentWebhook> {
    const sent: SentWebhook = { url, headers: { 'content-type': 'application/json', ...headers }, body };
    this.webhooks.push(sent);
    sent.status = await fetch(url, { method: 'POST', headers: sent.headers, body }).then((r) => r.status, () => 0);
    return sent;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.predictions.close();
    await this.server.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body: Record<string, unknown> = req.method === 'PUT' || req.method === 'POST' ? await readJson(req).catch(() => ({})) : {};
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const failure = this.predictions.failure;
    if (failure === 'down') return void req.socket.destroy();
    if (req.method === 'GET' && path === '/health-check') return send(res, 200, { status: this.health, setup: { status: 'succeeded' } });
    const put = /^\/predictions\/([^/]+)$/.exec(path);
    if (req.method === 'PUT' && put) return this.put(decodeURIComponent(put[1]), body, req, res);
    const cancel = /^\/predictions\/([^/]+)\/cancel$/.exec(path);
    if (req.method === 'POST' && cancel) {
      const prediction = this.running(decodeURIComponent(cancel[1]));
      if (!prediction) return send(res, 404, { detail: 'Not Found' });
      this.predictions.cancel(prediction.id);
      return send(res, 200, {});
    }
    send(res, 404, { detail: 'Not Found' });
  }

  private async put(id: string, body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const failure = this.predictions.failure;
    if (failure === 'http-5xx') return send(res, 500, { detail: 'Internal Server Error' });
    if (failure === 'malformed') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy error</html>');
    if (body.id !== undefined && body.id !== id)
      return send(res, 422, { detail: [{ loc: ['body', 'id'], msg: 'prediction ID must match the ID supplied in the URL', type: 'value_error' }] });
    if (failure === 'http-4xx')
      return send(res, 422, { detail: [{ loc: ['body', 'input', 'prompt'], msg: 'field required', type: 'value_error.missing' }] });
    const inFlight = this.running(id);
    if (inFlight) return send(res, 202, inFlight);
    const prediction = this.predictions.create(id, (body.input as Record<string, unknown>) ?? {}, typeof body.webhook === 'string' ? { webhook: body.webhook } : {});
    if (String(req.headers.prefer ?? '').includes('respond-async')) return send(res, 202, { id, status: 'starting' });
    await this.predictions.whenFinal(id);
    send(res, 200, prediction);
  }

  /** Cog knows a prediction only while it runs. */
  private running(id: string): FakePrediction | undefined {
    const prediction = this.predictions.all.get(id);
    return prediction && !isFinal(prediction) ? prediction : undefined;
  }
}
