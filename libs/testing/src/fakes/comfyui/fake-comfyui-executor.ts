import { sleep } from '@genasset/contracts';
import sharp from 'sharp';

/**
 * The execution side of the fake ComfyUI: one prompt at a time from the queue, as ComfyUI's
 * `prompt_worker` (main.py) and `PromptExecutor.execute_async` (execution.py) run them, with the
 * same websocket messages in the same order and the same history entry at the end. Nothing is
 * computed: KSampler counts its steps, SaveImage writes a small PNG whose colour follows the seed.
 */

export type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

/** `[number, prompt_id, graph, extra_data, outputs_to_execute]`, ComfyUI's queue item. */
export type QueueItem = [number, string, Graph, Record<string, unknown>, string[]];

export interface HistoryEntry {
  prompt: QueueItem;
  outputs: Record<string, { images: { filename: string; subfolder: string; type: string }[] }>;
  status: { status_str: 'success' | 'error'; completed: boolean; messages: [string, Record<string, unknown>][] };
  meta: Record<string, unknown>;
}

export interface ExecutorHooks {
  /** Sends `{type, data}` to the websocket of `clientId` (as server.send_sync with the prompt's client id). */
  send(type: string, data: Record<string, unknown>, clientId: string | undefined): void;
  stepDelayMs(): number;
  /** The failure mode now selected (per test). */
  failure(): string | undefined;
  /** Called once the sampler made its first step: for drop-socket and lose-job. */
  firstStep(item: QueueItem): 'continue' | 'lost';
  store(key: string, bytes: Buffer): void;
}

export class FakeExecutor {
  readonly pending: QueueItem[] = [];
  running: QueueItem | undefined;
  readonly history = new Map<string, HistoryEntry>();
  private interrupted = false;
  private counter = 0;
  private wake?: () => void;
  private stopped = false;

  constructor(private readonly hooks: ExecutorHooks) {
    void this.loop();
  }

  put(item: QueueItem): void {
    this.pending.push(item);
    this.pending.sort((a, b) => a[0] - b[0]);
    this.wake?.();
  }

  /** POST /interrupt: stops the running prompt at its next step (`prompt_id` given: only when it is that one). */
  interrupt(promptId?: string): void {
    if (this.running && (!promptId || this.running[1] === promptId)) this.interrupted = true;
  }

  delete(promptId: string): void {
    const i = this.pending.findIndex((item) => item[1] === promptId);
    if (i >= 0) this.pending.splice(i, 1);
  }

  stop(): void {
    this.stopped = true;
    this.interrupted = true;
    this.wake?.();
  }


  private async loop(): Promise<void> {
    while (!this.stopped) {
      const item = this.pending.shift();
      if (!item) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      this.running = item;
      this.interrupted = false;
      try {
        await this.execute(item);
      } finally {
        this.running = undefined;
      }
    }
  }

  private async execute(item: QueueItem): Promise<void> {
    const [, promptId, graph, extra] = item;
    const clientId = typeof extra.client_id === 'string' ? extra.client_id : undefined;
    const messages: [string, Record<string, unknown>][] = [];
    const add = (type: string, data: Record<string, unknown>) => {
      const stamped = { ...data, timestamp: Date.now() };
      messages.push([type, stamped]);
      this.hooks.send(type, stamped, clientId);
    };
    add('execution_start', { prompt_id: promptId });
    add('execution_cached', { nodes: [], prompt_id: promptId });
    const outputs: HistoryEntry['outputs'] = {};
    const executed: string[] = [];
    let first = true;
    for (const id of order(graph)) {
      const node = graph[id];
      this.hooks.send('executing', { node: id, display_node: id, prompt_id: promptId }, clientId);
      if (node.class_type === 'KSampler') {
        const steps = Math.max(1, Math.min(Number(node.inputs.steps) || 1, 1000));
        for (let step = 1; step <= steps; step++) {
          if (this.interrupted) break;
          this.hooks.send('progress', { value: step, max: steps, prompt_id: promptId, node: id }, clientId);
          if (first) {
            first = false;
            if (this.hooks.firstStep(item) === 'lost') return;
          }
          await sleep(this.hooks.stepDelayMs());
          // A job that never ends: the sampler stays on its last step until interrupted.
          while (step === steps && this.hooks.failure() === 'never-ends' && !this.interrupted) await sleep(20);
        }
      }
      if (this.interrupted) {
        add('execution_interrupted', { prompt_id: promptId, node_id: id, node_type: node.class_type, executed });
        this.finish(item, outputs, { status_str: 'error', completed: false, messages }, clientId);
        return;
      }
      if (node.class_type === 'SaveImage') {
        const images = await this.save(graph, node, Number(seedOf(graph)));
        outputs[id] = { images };
        this.hooks.send('executed', { node: id, display_node: id, output: { images }, prompt_id: promptId }, clientId);
      }
      executed.push(id);
    }
    add('execution_success', { prompt_id: promptId });
    this.finish(item, outputs, { status_str: 'success', completed: true, messages }, clientId);
  }

  private finish(item: QueueItem, outputs: HistoryEntry['outputs'], status: HistoryEntry['status'], clientId?: string): void {
    this.history.set(item[1], { prompt: item, outputs, status, meta: {} });
    this.hooks.send('executing', { node: null, prompt_id: item[1] }, clientId);
  }

  private async save(graph: Graph, node: Graph[string], seed: number) {
    const latent = Object.values(graph).find((n) => n.class_type === 'EmptyLatentImage')?.inputs;
    const repeat = Object.values(graph).find((n) => n.class_type === 'RepeatLatentBatch')?.inputs;
    const batch = Math.max(1, Math.min(Number(latent?.batch_size ?? repeat?.amount ?? 1) || 1, 16));
    const width = Math.min(Number(latent?.width) || 64, 256);
    const height = Math.min(Number(latent?.height) || 64, 256);
    const prefix = String(node.inputs.filename_prefix ?? 'ComfyUI');
    const slash = prefix.lastIndexOf('/');
    const [subfolder, base] = slash >= 0 ? [prefix.slice(0, slash), prefix.slice(slash + 1)] : ['', prefix];
    const images = [];
    for (let i = 0; i < batch; i++) {
      const filename = `${base}_${String(++this.counter).padStart(5, '0')}_.png`;
      const colour = { r: (seed + i * 40) % 256, g: (seed >> 8) % 256, b: 200 };
      const bytes = await sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
      this.hooks.store(`output/${subfolder}/${filename}`, bytes);
      images.push({ filename, subfolder, type: 'output' });
    }
    return images;
  }
}

function seedOf(graph: Graph): unknown {
  return Object.values(graph).find((n) => n.class_type === 'KSampler')?.inputs.seed ?? 0;
}

/** Nodes in dependency order (inputs linked as [id, output] first), as ComfyUI's ExecutionList stages them. */
function order(graph: Graph): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const visit = (id: string) => {
    if (seen.has(id) || !graph[id]) return;
    seen.add(id);
    for (const value of Object.values(graph[id].inputs))
      if (Array.isArray(value) && typeof value[0] === 'string') visit(value[0]);
    out.push(id);
  };
  for (const id of Object.keys(graph)) visit(id);
  return out;
}

