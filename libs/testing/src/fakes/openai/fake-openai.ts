/**
 * A fake OpenAI-compatible server (OpenAI, LocalAI, vLLM, Ollama, TEI speak this API), for tests.
 *
 * Follows the OpenAI API reference as published in github.com/openai/openai-openapi `openapi.yaml`
 * (read, not copied): CreateImageRequest (`POST /v1/images/generations` {model, prompt, n, size,
 * response_format} → ImagesResponse {created, data: [{b64_json | url, revised_prompt}]}),
 * CreateImageEditRequest (`POST /v1/images/edits`, multipart: image, mask — "fully transparent
 * areas indicate where image should be edited" —, prompt, n, size, model, response_format),
 * CreateEmbeddingRequest/Response (`POST /v1/embeddings` {model, input} → {object: "list", data:
 * [{object: "embedding", embedding, index}], model, usage}), CreateChatCompletionRequest/Response
 * (`POST /v1/chat/completions`, content parts `text` and `image_url` → {choices: [{index, message:
 * {role, content}, finish_reason}]}), ListModelsResponse (`GET /v1/models`), and ErrorResponse
 * `{error: {message, type, param, code}}` with 401 for a wrong key, 429 with `retry-after`.
 *
 * Failure modes per test with `fail(...)`: `down` (connections reset), `http-4xx` (400
 * content_policy_violation), `http-5xx` (500 server_error), `malformed` (200 with an HTML body),
 * `never-answers` (the request is held until the client gives up), `rate-limited` (429 with
 * `retry-after: <retryAfterS>` for the next `times` requests, then normal answers).
 * `delayMs` holds every answered POST for a fixed time, as a model's generation time would
 * (bench/generation's remote-backend run: a backend that answers each job after 1 s).
 *
 * `searchModels`: models that embed texts and images into one space (CLIP-like), served as Infinity
 * (github.com/michaelfeil/infinity, read at fcb951c) serves them on the same `POST /v1/embeddings`:
 * `libs/infinity_emb/infinity_emb/fastapi_schemas/pymodels.py` — MultiModalOpenAIEmbedding, a union
 * told apart by `modality` ("text" default, "image", "audio"), each `{model, input: str | [str],
 * encoding_format, user, dimensions}`; image inputs are URLs or `data:` URIs, at most 32 a call
 * (ITEMS_LIMIT_SMALL; texts: max_client_batch_size, 2048); the answer OpenAIEmbeddingResult
 * `{object: "list", data: [{object: "embedding", embedding, index}], model, usage: {prompt_tokens,
 * total_tokens}, id, created}` — and `libs/infinity_emb/infinity_emb/infinity_server.py` (`_embeddings`):
 * a model that cannot embed the modality → 400 `ModelNotDeployedError: model=… does not support
 * embed for modality image…`, an image it cannot read → 400 `<class '…ImageCorruption'> -> …`, an
 * overloaded model → 429; errors as `fastapi_schemas/errors.py` writes them: `{error: {message,
 * type, param, code}}` with `code` the HTTP status; a body the union refuses → FastAPI's 422
 * `{detail: [...]}`. The fake's vectors are deterministic and have a meaning a test can assert:
 * one axis per colour word (red, orange, yellow, green, blue, purple, white, black) — an image
 * points along the named colour nearest its mean colour, a text along the colour words it holds
 * (none: an axis of its own) — so "a red square" is nearest the red picture.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { FakeServer } from '../fake-server';

export type FakeOpenaiFailure = 'down' | 'http-4xx' | 'http-5xx' | 'malformed' | 'never-answers' | 'rate-limited';

export interface FakeOpenaiOptions {
  /** The key `Authorization: Bearer` must carry (absent: any). */
  apiKey?: string;
  /** Model ids GET /v1/models lists. */
  models?: string[];
  /** The chat answer, from the request (default: a caption/translation/prompt-shaped reply by its system message). */
  chatReply?: (body: ChatRequest) => string;
  /** Fixed time each POST (image, chat, embedding call) takes before its answer (default 0). */
  delayMs?: number;
  /**
   * Holds every POST until this many are in flight at once, then answers them all (and later ones
   * at once): a test that the server really gets that many jobs at the same time.
   */
  answerWhenInFlight?: number;
  /** Models that embed texts and images into one space, Infinity-style (`modality`): see the file's comment. */
  searchModels?: string[];
  /** Per search model, colour names whose pictures it answers as Infinity answers an image it cannot read (400 ImageCorruption, for the whole call). */
  refusedColours?: Record<string, string[]>;
}

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
  [key: string]: unknown;
}

export interface FakeOpenaiRequest {
  method: string;
  path: string;
  authorization?: string;
  /** Parsed JSON body, or the multipart fields (files as `{name, type, bytes}`). */
  body: Record<string, unknown>;
  /** Milliseconds from the request's arrival to its answer's last byte (set once answered): the backend's own time. */
  heldMs?: number;
}

export class FakeOpenai {
  readonly requests: FakeOpenaiRequest[] = [];
  /** Images the fake produced, by the order it produced them (what assets must hold). */
  readonly images: Buffer[] = [];
  /** POSTs being answered now, and the most at once since `resetPeak()` (how many jobs a backend really had in flight). */
  inFlight = 0;
  peakInFlight = 0;
  /**
   * What each output file holds instead of the PNG drawn (tests of output checks: a file over the
   * worker's limit, text where an image is due); undefined: the PNG.
   */
  outputBytes?: (png: Buffer) => Buffer;
  private failure?: { mode: FakeOpenaiFailure; times: number; retryAfterS: number };
  private readonly files = new Map<string, Buffer>();
  private gate?: { open: Promise<void>; release: () => void };

  private constructor(
    private readonly server: FakeServer,
    readonly options: FakeOpenaiOptions,
  ) {}

  static async start(options: FakeOpenaiOptions = {}): Promise<FakeOpenai> {
    const server = new FakeServer();
    const fake = new FakeOpenai(server, options);
    await server.listen((req, res) => fake.handle(req, res));
    return fake;
  }

  /** The API base URL, with its version (what a backends file names). */
  get url(): string {
    return `${this.server.origin}/v1`;
  }

  /** Selects a failure mode (undefined: behave); `rate-limited` lasts `times` requests (default 1). */
  fail(mode: FakeOpenaiFailure | undefined, options: { times?: number; retryAfterS?: number } = {}): void {
    this.failure = mode ? { mode, times: options.times ?? Infinity, retryAfterS: options.retryAfterS ?? 1 } : undefined;
    if (mode === 'rate-limited' && options.times === undefined) this.failure!.times = 1;
  }

  resetPeak(): void {
    this.peakInFlight = this.inFlight;
  }

  async close(): Promise<void> {
    await this.server.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAt = performance.now();
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await read(req);
    const request: FakeOpenaiRequest = { method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization, body: {} };
    this.requests.push(request);
    res.once('finish', () => (request.heldMs = performance.now() - arrivedAt));
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    const error = (status: number, message: string, type: string, code: string | null, headers?: Record<string, string>) =>
      json(status, { error: { message, type, param: null, code } }, headers);
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const file = this.files.get(url.pathname.slice('/files/'.length));
      if (!file) return error(404, 'not found', 'invalid_request_error', null);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(file.length) }).end(file);
      return;
    }
    const failure = this.failure;
    if (failure && failure.times > 0) {
      if (failure.mode !== 'down') failure.times--;
      switch (failure.mode) {
        case 'down':
          req.socket.destroy();
          return;
        case 'never-answers':
          return; // held: the client's timeout ends it
        case 'malformed':
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
          return;
        case 'http-5xx':
          return error(500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null);
        case 'http-4xx':
          return error(400, 'Your request was rejected as a result of our safety system.', 'invalid_request_error', 'content_policy_violation');
        case 'rate-limited':
          return error(429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded', { 'retry-after': String(failure.retryAfterS) });
      }
    }
    if (this.options.apiKey && req.headers.authorization !== `Bearer ${this.options.apiKey}`)
      return error(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    if (req.method === 'POST') {
      this.peakInFlight = Math.max(this.peakInFlight, ++this.inFlight);
      res.once('close', () => this.inFlight--);
      const together = this.options.answerWhenInFlight;
      if (together !== undefined) {
        if (!this.gate) {
          let release!: () => void;
          this.gate = { open: new Promise<void>((resolve) => (release = resolve)), release };
        }
        if (this.peakInFlight >= together) this.gate.release();
        await this.gate.open;
      }
    }
    if (req.method === 'POST' && this.options.delayMs) await new Promise((r) => setTimeout(r, this.options.delayMs));
    try {
      const route = `${req.method} ${url.pathname}`;
      if (route === 'GET /v1/models')
        return json(200, { object: 'list', data: (this.options.models ?? []).map((id) => ({ id, object: 'model', owned_by: 'fake' })) });
      if (route === 'POST /v1/images/edits') {
        request.body = await formFields(req, raw);
        if (!(request.body.image as { bytes?: Buffer })?.bytes) return error(400, "'image' is a required property", 'invalid_request_error', null);
      } else request.body = JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
      const body = request.body;
      if (route === 'POST /v1/images/generations' || route === 'POST /v1/images/edits') {
        if (typeof body.prompt !== 'string' || !body.prompt) return error(400, "'prompt' is a required property", 'invalid_request_error', null);
        const [w, h] = String(body.size ?? '64x64').split('x').map(Number);
        const data = [];
        for (let i = 0; i < Number(body.n ?? 1); i++) {
          const drawn = await picture(Math.min(w, 256), Math.min(h, 256), `${body.prompt}#${i}`);
          const png = this.outputBytes?.(drawn) ?? drawn;
          this.images.push(png);
          if (body.response_format === 'url') {
            const name = `img-${this.images.length}.png`;
            this.files.set(name, png);
            data.push({ url: `${this.url.replace(/\/v1$/, '')}/files/${name}` });
          } else data.push({ b64_json: png.toString('base64'), revised_prompt: `${body.prompt} (revised)` });
        }
        return json(200, { created: Math.floor(Date.now() / 1000), data });
      }
      if (route === 'POST /v1/embeddings' && (body.modality !== undefined || this.options.searchModels?.includes(String(body.model)))) {
        const modality = body.modality ?? 'text';
        const inputs: unknown[] = Array.isArray(body.input) ? body.input : body.input === undefined ? [] : [body.input];
        const detail = (msg: string) => json(422, { detail: [{ type: 'value_error', loc: ['body'], msg, input: null }] });
        if (modality !== 'text' && modality !== 'image' && modality !== 'audio')
          return detail(`Input tag '${String(modality)}' found using get_modality() does not match any of the expected tags: 'text', 'audio', 'image'`);
        if (!inputs.length || inputs.some((i) => typeof i !== 'string')) return detail('input: a string or a list of 1 or more strings');
        if (modality !== 'text' && inputs.length > 32) return detail('input: List should have at most 32 items after validation');
        const infinityError = (status: number, message: string) => json(status, { error: { message, type: null, param: null, code: status } });
        const clip = this.options.searchModels?.includes(String(body.model));
        if (!clip)
          return infinityError(400, `ModelNotDeployedError: model=\`${String(body.model)}\` does not support \`embed\` for modality \`${String(modality)}\`. Reason: the fake serves it as a text model`);
        if (modality === 'audio') return infinityError(400, `ModelNotDeployedError: model=\`${String(body.model)}\` does not support \`embed\` for modality \`audio\`.`);
        const vectors: number[][] = [];
        for (const input of inputs as string[]) {
          if (modality === 'text') vectors.push(colourOfText(input));
          else {
            const vector = await colourOfImage(input);
            const refused = this.options.refusedColours?.[String(body.model)]?.some((name) => vector?.[COLOUR_NAMES.indexOf(name)] === 1);
            if (!vector || refused) return infinityError(400, `<class 'infinity_emb.primitives.ImageCorruption'> -> error decoding data URI: not an image`);
            vectors.push(vector);
          }
        }
        const data = vectors.map((embedding, index) => ({ object: 'embedding', embedding, index }));
        return json(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length }, id: `infinity-${this.requests.length}`, created: Math.floor(Date.now() / 1000) });
      }
      if (route === 'POST /v1/embeddings') {
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: embedding(String(text)) }));
        return json(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: 3, total_tokens: 3 } });
      }
      if (route === 'POST /v1/chat/completions') {
        const content = (this.options.chatReply ?? defaultReply)(body as ChatRequest);
        return json(200, {
          id: `chatcmpl-${this.requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        });
      }
      return error(404, `Unknown request URL: ${route}`, 'invalid_request_error', 'unknown_url');
    } catch (e) {
      return error(400, `We could not parse the JSON body of your request. (${(e as Error).message})`, 'invalid_request_error', null);
    }
  }
}

/** What the fake answers a chat by default: shaped after the instruction (the engine's system message). */
function defaultReply(body: ChatRequest): string {
  const system = String(body.messages.find((m) => m.role === 'system')?.content ?? '');
  const user = body.messages.find((m) => m.role === 'user')?.content;
  const parts = Array.isArray(user) ? user : [];
  const images = parts.filter((p) => p.type === 'image_url').length;
  const text = parts.find((p) => p.type === 'text')?.text ?? '';
  if (system.startsWith('Translate')) return `fr\nEnglish for: ${text}`;
  const count = /exactly (\d+)/.exec(system);
  if (count) return Array.from({ length: Number(count[1]) }, (_, i) => `${i + 1}. fake prompt ${i + 1} about ${text || 'nothing'}`).join('\n');
  if (system.startsWith('Describe the visual style')) return `A fake style of ${images} image(s).\n---\nfake style`;
  return `A fake caption of ${images} image(s).`;
}

/** A deterministic vector (8 dimensions) from the text. */
function embedding(text: string): number[] {
  const v = Array.from({ length: 8 }, (_, i) => Math.sin(text.length + i * 1.7 + (text.charCodeAt(i % Math.max(1, text.length)) || 0)));
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

/** The fake search model's axes: one per colour word, then one for texts naming no colour. */
export const FAKE_COLOURS: Record<string, [number, number, number]> = {
  red: [220, 30, 30],
  orange: [240, 140, 20],
  yellow: [230, 220, 40],
  green: [30, 170, 40],
  blue: [30, 60, 220],
  purple: [130, 40, 170],
  white: [245, 245, 245],
  black: [12, 12, 12],
};
const COLOUR_NAMES = Object.keys(FAKE_COLOURS);

function axis(index: number, weight = 1): number[] {
  const v = new Array<number>(COLOUR_NAMES.length + 1).fill(0);
  v[index] = weight;
  return v;
}

/** A text's vector: along the colour words it holds (none: the last axis). */
function colourOfText(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  const v: number[] = COLOUR_NAMES.map((name) => (words.includes(name) ? 1 : 0));
  v.push(v.some((x) => x > 0) ? 0 : 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** An image's vector (a data: URI): along the named colour nearest its mean colour; undefined when it is no image. */
async function colourOfImage(uri: string): Promise<number[] | undefined> {
  const match = /^data:image\/[a-z0-9.+-]+;base64,(.*)$/is.exec(uri);
  if (!match) return undefined;
  try {
    const { channels } = await sharp(Buffer.from(match[1], 'base64')).stats();
    const mean = channels.slice(0, 3).map((c) => c.mean);
    let best = 0;
    let bestDistance = Infinity;
    COLOUR_NAMES.forEach((name, i) => {
      const d = FAKE_COLOURS[name].reduce((s, c, k) => s + (c - (mean[k] ?? mean[0])) ** 2, 0);
      if (d < bestDistance) [best, bestDistance] = [i, d];
    });
    return axis(best);
  } catch {
    return undefined;
  }
}

async function picture(width: number, height: number, seed: string): Promise<Buffer> {
  let h = 0;
  for (const c of seed) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return sharp({ create: { width: width || 64, height: height || 64, channels: 3, background: { r: h & 255, g: (h >> 8) & 255, b: (h >> 16) & 255 } } })
    .png()
    .toBuffer();
}

/** Multipart fields as the server would read them (undici's parser): files as {name, type, bytes}. */
async function formFields(req: IncomingMessage, raw: Buffer): Promise<Record<string, unknown>> {
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
  const fields: Record<string, unknown> = {};
  for (const [key, value] of form.entries())
    fields[key] = typeof value === 'string' ? value : { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  return fields;
}

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
