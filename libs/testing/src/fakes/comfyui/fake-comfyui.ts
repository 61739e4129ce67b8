/**
 * A fake ComfyUI that speaks its real protocol, for tests (no GPU, no Python here).
 *
 * Follows, read at these commits of github.com/comfyanonymous/ComfyUI (read, not copied):
 * - server.py @ d4b509799f875455e5e9b9405026afc8755f14fe — routes: POST /prompt ({prompt,
 *   prompt_id?, client_id, extra_data} → {prompt_id, number, node_errors}; 400 {error, node_errors}),
 *   GET /history[/{id}], GET/POST /queue ({delete: [...]}), POST /interrupt ({prompt_id} honoured),
 *   GET /object_info, POST /upload/image and /upload/mask (multipart image, type, subfolder,
 *   overwrite, original_ref → {name, subfolder, type}), GET /view, GET /ws?clientId= (a `status`
 *   message on connect; JSON `{type, data}` frames to the prompt's client id only).
 * - execution.py @ f599e5ca303746f8e1f1b842d4fe31a4c6a10d36 — PromptExecutor messages:
 *   execution_start, execution_cached, executing, progress, executed, execution_success,
 *   execution_interrupted, with `timestamp`; history status {status_str, completed, messages}.
 * - main.py @ 002f2bedd6e4f6a0f7436ab7ce2fb8021483904c — prompt_worker: history written at
 *   task_done, then `executing` with node null to the client.
 *
 * Failure modes, chosen per test with `fail(...)`: `down` (connections reset, websocket refused),
 * `http-4xx` (POST /prompt refused as an invalid graph), `http-5xx` (POST /prompt answers 500),
 * `malformed` (POST /prompt and /history answer a body that is not JSON), `never-ends` (the sampler
 * never finishes its last step until interrupted), `drop-socket` (websockets closed after the first
 * sampler step, the prompt carries on), `lose-job` (after the first step the server forgets the
 * prompt — no queue, no history — as a restart would). Cancel mid-run is the real /interrupt.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';
import { FakeServer } from '../fake-server';
import { FakeExecutor, type Graph, type HistoryEntry, type QueueItem } from './fake-comfyui-executor';

export type FakeComfyuiFailure = 'down' | 'http-4xx' | 'http-5xx' | 'malformed' | 'never-ends' | 'drop-socket' | 'lose-job';

export interface FakeComfyuiOptions {
  /** Pause after each sampler step (default 20 ms). */
  stepDelayMs?: number;
  /** Node types /object_info lists (default: core nodes plus the IPAdapter pack's). */
  nodeTypes?: string[];
  /** Behave as servers before client-chosen prompt ids: ignore `prompt_id`, choose one. */
  ignorePromptId?: boolean;
}

export const CORE_NODE_TYPES = [
  'CheckpointLoaderSimple', 'CLIPTextEncode', 'EmptyLatentImage', 'KSampler', 'VAEDecode', 'VAEEncode', 'SaveImage',
  'LoadImage', 'LoadImageMask', 'VAEEncodeForInpaint', 'SetLatentNoiseMask', 'RepeatLatentBatch', 'Canny',
  'ControlNetLoader', 'ControlNetApplyAdvanced', 'UpscaleModelLoader', 'ImageUpscaleWithModel',
];
export const IPADAPTER_NODE_TYPES = ['IPAdapterUnifiedLoader', 'IPAdapter'];

export interface Submitted {
  promptId: string;
  clientId?: string;
  graph: Graph;
  extraData: Record<string, unknown>;
}

export class FakeComfyui {
  /** Every POST /prompt the fake accepted (the count a test of "submitted exactly once" reads). */
  readonly submits: Submitted[] = [];
  readonly interrupts: (string | undefined)[] = [];
  readonly deleted: string[] = [];
  readonly uploads: { kind: 'image' | 'mask'; name: string; subfolder: string; bytes: Buffer }[] = [];
  /** `METHOD /path` of every request, in order. */
  readonly calls: string[] = [];
  /** Files by `type/subfolder/name`: inputs uploaded and outputs written (what /view serves). */
  readonly files = new Map<string, Buffer>();
  /**
   * What each output file holds instead of the PNG drawn (tests of output checks: a file over the
   * worker's limit, text where an image is due); undefined: the PNG.
   */
  outputBytes?: (png: Buffer) => Buffer;
  private failure: FakeComfyuiFailure | undefined;
  private readonly sockets = new Map<string, WebSocket>();
  private readonly executor: FakeExecutor;
  private readonly wss = new WebSocketServer({ noServer: true });
  private number = 0;

  private constructor(
    private readonly server: FakeServer,
    /** Changeable by a test (e.g. `ignorePromptId` for the submissions that follow). */
    readonly options: FakeComfyuiOptions,
  ) {
    this.executor = new FakeExecutor({
      send: (type, data, clientId) => this.send(type, data, clientId),
      stepDelayMs: () => this.options.stepDelayMs ?? 20,
      failure: () => this.failure,
      store: (key, bytes) => this.files.set(key, key.startsWith('output/') ? (this.outputBytes?.(bytes) ?? bytes) : bytes),
      firstStep: (item) => {
        if (this.failure === 'drop-socket') for (const ws of this.sockets.values()) ws.terminate();
        if (this.failure !== 'lose-job') return 'continue';
        for (const ws of this.sockets.values()) ws.terminate();
        this.lost.add(item[1]);
        return 'lost';
      },
    });
  }
  private readonly lost = new Set<string>();

  static async start(options: FakeComfyuiOptions = {}): Promise<FakeComfyui> {
    const server = new FakeServer();
    const fake = new FakeComfyui(server, options);
    await server.listen((req, res) => fake.handle(req, res), (req, socket, head) => fake.upgrade(req, socket, head));
    return fake;
  }

  get url(): string {
    return this.server.origin;
  }

  /** Selects a failure mode (undefined: behave). */
  fail(mode: FakeComfyuiFailure | undefined): void {
    this.failure = mode;
    if (mode === 'down') for (const ws of this.sockets.values()) ws.terminate();
  }

  /** The queue as GET /queue has it: running, then pending prompt ids. */
  get queue(): { running: string[]; pending: string[] } {
    return { running: this.executor.running ? [this.executor.running[1]] : [], pending: this.executor.pending.map((i) => i[1]) };
  }

  history(promptId: string): HistoryEntry | undefined {
    return this.executor.history.get(promptId);
  }

  async close(): Promise<void> {
    this.executor.stop();
    for (const ws of this.sockets.values()) ws.terminate();
    this.wss.close();
    await this.server.close();
  }

  private send(type: string, data: Record<string, unknown>, clientId?: string): void {
    const ws = clientId ? this.sockets.get(clientId) : undefined;
    if (ws && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type, data }));
  }

  private upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (this.failure === 'down' || url.pathname !== '/ws') {
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const sid = url.searchParams.get('clientId') || randomUUID().replace(/-/g, '');
      this.sockets.get(sid)?.terminate();
      this.sockets.set(sid, ws);
      ws.on('close', () => {
        if (this.sockets.get(sid) === ws) this.sockets.delete(sid);
      });
      ws.send(JSON.stringify({ type: 'status', data: { status: this.queueInfo(), sid } }));
      const running = this.executor.running;
      if (running && running[3].client_id === sid) ws.send(JSON.stringify({ type: 'executing', data: { node: null, prompt_id: running[1] } }));
    });
  }

  private queueInfo() {
    return { exec_info: { queue_remaining: this.executor.pending.length + (this.executor.running ? 1 : 0) } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = `${req.method} ${url.pathname}`;
    this.calls.push(route);
    if (this.failure === 'down') {
      req.socket.destroy();
      return;
    }
    const body = await read(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const malformed = () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>502 Bad Gateway</body></html>');
    };
    try {
      if (route === 'POST /prompt') {
        if (this.failure === 'http-5xx') {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('500 Internal Server Error\n\nServer got itself in trouble');
          return;
        }
        if (this.failure === 'malformed') return malformed();
        const data = JSON.parse(body.toString()) as { prompt?: Graph; prompt_id?: string; client_id?: string; extra_data?: Record<string, unknown> };
        if (!data.prompt) return json(400, { error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} }, node_errors: {} });
        const unknown = Object.entries(data.prompt).find(([, n]) => !this.nodeTypes().includes(n.class_type));
        if (unknown)
          return json(400, { error: { type: 'invalid_prompt', message: `Cannot execute because node ${unknown[1].class_type} does not exist.`, details: `Node ID '#${unknown[0]}'`, extra_info: {} }, node_errors: {} });
        if (this.failure === 'http-4xx') {
          const loader = Object.entries(data.prompt).find(([, n]) => n.class_type === 'CheckpointLoaderSimple')?.[0] ?? '4';
          return json(400, {
            error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} },
            node_errors: { [loader]: { errors: [{ type: 'value_not_in_list', message: 'Value not in list', details: "ckpt_name: 'missing.safetensors' not in []", extra_info: {} }], dependent_outputs: ['9'], class_type: 'CheckpointLoaderSimple' } },
          });
        }
        const promptId = this.options.ignorePromptId || !data.prompt_id ? randomUUID() : String(data.prompt_id);
        const extra = { ...(data.extra_data ?? {}), ...(data.client_id ? { client_id: data.client_id } : {}) };
        const number = this.number++;
        this.submits.push({ promptId, clientId: data.client_id, graph: data.prompt, extraData: extra });
        const outputs = Object.entries(data.prompt).filter(([, n]) => n.class_type === 'SaveImage').map(([id]) => id);
        this.executor.put([number, promptId, data.prompt, extra, outputs] as QueueItem);
        return json(200, { prompt_id: promptId, number, node_errors: {} });
      }
      if (route === 'GET /history') return json(200, Object.fromEntries(this.executor.history));
      if (req.method === 'GET' && url.pathname.startsWith('/history/')) {
        if (this.failure === 'malformed') return malformed();
        const id = decodeURIComponent(url.pathname.slice('/history/'.length));
        const entry = this.executor.history.get(id);
        return json(200, entry ? { [id]: entry } : {});
      }
      if (route === 'GET /queue') {
        const running = this.executor.running && !this.lost.has(this.executor.running[1]) ? [this.executor.running] : [];
        return json(200, { queue_running: running, queue_pending: this.executor.pending });
      }
      if (route === 'GET /prompt') return json(200, this.queueInfo());
      if (route === 'POST /queue') {
        const data = JSON.parse(body.toString() || '{}') as { delete?: string[]; clear?: boolean };
        for (const id of data.delete ?? []) {
          this.deleted.push(id);
          this.executor.delete(id);
        }
        res.writeHead(200).end();
        return;
      }
      if (route === 'POST /interrupt') {
        let promptId: string | undefined;
        try {
          promptId = (JSON.parse(body.toString() || '{}') as { prompt_id?: string }).prompt_id;
        } catch {
          promptId = undefined;
        }
        this.interrupts.push(promptId);
        this.executor.interrupt(promptId);
        res.writeHead(200).end();
        return;
      }
      if (route === 'GET /object_info')
        return json(200, Object.fromEntries(this.nodeTypes().map((t) => [t, { input: { required: {} }, output: [], name: t, display_name: t, category: 'fake', output_node: t === 'SaveImage' }])));
      if (route === 'POST /upload/image' || route === 'POST /upload/mask') return await this.upload(route.endsWith('mask') ? 'mask' : 'image', req, body, json);
      if (route === 'GET /view') {
        const key = `${url.searchParams.get('type') ?? 'output'}/${url.searchParams.get('subfolder') ?? ''}/${url.searchParams.get('filename') ?? ''}`;
        const file = this.files.get(key);
        if (!file) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': file.length });
        res.end(file);
        return;
      }
      res.writeHead(404).end();
    } catch (error) {
      json(400, { error: (error as Error).message });
    }
  }

  private async upload(kind: 'image' | 'mask', req: IncomingMessage, body: Buffer, json: (s: number, v: unknown) => void): Promise<void> {
    const form = await new Request('http://fake/upload', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: new Uint8Array(body) }).formData();
    const image = form.get('image');
    if (!image || typeof image === 'string' || !image.name) return json(400, { error: 'no image' });
    const type = String(form.get('type') ?? 'input');
    const subfolder = String(form.get('subfolder') ?? '');
    let bytes: Buffer = Buffer.from(await image.arrayBuffer());
    if (kind === 'mask') {
      // As server.py does: the original (original_ref) with the uploaded mask's alpha channel.
      const ref = JSON.parse(String(form.get('original_ref'))) as { filename: string; subfolder?: string; type?: string };
      const original = this.files.get(`${ref.type ?? 'output'}/${ref.subfolder ?? ''}/${ref.filename}`);
      if (!original) return json(400, { error: 'original not found' });
      const alpha = await sharp(bytes).ensureAlpha().extractChannel(3).toBuffer();
      const { width, height } = await sharp(original).metadata();
      // (removeAlpha first, in its own pipeline: sharp applies it after joinChannel otherwise.)
      const rgb = await sharp(original).removeAlpha().png().toBuffer();
      bytes = await sharp(rgb).joinChannel(await sharp(alpha).resize(width, height).toBuffer()).png().toBuffer();
    }
    this.files.set(`${type}/${subfolder}/${image.name}`, bytes);
    this.uploads.push({ kind, name: image.name, subfolder, bytes });
    json(200, { name: image.name, subfolder, type });
  }

  private nodeTypes(): string[] {
    return this.options.nodeTypes ?? [...CORE_NODE_TYPES, ...IPADAPTER_NODE_TYPES];
  }
}

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
