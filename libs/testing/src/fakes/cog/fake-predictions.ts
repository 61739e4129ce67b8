/**
 * The prediction lifecycle shared by the fake Cog container and the fake Replicate API (fake-cog.ts,
 * ../replicate/fake-replicate.ts): statuses starting → processing → succeeded | failed | canceled,
 * tqdm-style progress in `logs`, PNG outputs, webhooks on start and completion — as cog's
 * docs/http.md and Replicate's HTTP API describe them (upstream files cited in each fake).
 */
import sharp from 'sharp';

export type FakePredictionFailure =
  | 'down'
  | 'http-4xx'
  | 'http-5xx'
  | 'malformed'
  | 'never-ends'
  | 'prediction-fails';

export interface FakePrediction {
  id: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  input: Record<string, unknown>;
  output: unknown;
  error: string | null;
  logs: string;
  webhook?: string;
  created_at: string;
  completed_at?: string;
  version?: string;
  model?: string;
  /** A training's destination (`owner/name`). */
  destination?: string;
}

export interface FakePredictionsOptions {
  /** Progress steps of a prediction, each `stepMs` long. */
  steps?: number;
  stepMs?: number;
}

/** Runs fake predictions: each one a timer advancing its status and logs. */
export class FakePredictions {
  readonly all = new Map<string, FakePrediction>();
  /** Every prediction ever created, in order (what "exactly one prediction" counts). */
  readonly created: FakePrediction[] = [];
  /** Images produced, in order (what assets must hold). */
  readonly images: Buffer[] = [];
  readonly canceled: string[] = [];
  failure?: FakePredictionFailure;
  /**
   * What each output file holds instead of the PNG drawn (tests of output checks: a file over the
   * worker's limit, text where an image is due); undefined: the PNG.
   */
  outputBytes?: (png: Buffer) => Buffer;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Map<string, (() => void)[]>();

  constructor(
    private readonly options: FakePredictionsOptions,
    /** How an output file is given: a data URL (Cog) or a URL the fake serves (Replicate). */
    private readonly outputOf: (id: string, index: number, png: Buffer) => string,
    /** Sends a webhook (each fake its own way: Replicate signs). */
    private readonly notify: (prediction: FakePrediction) => void,
    /** The output of a succeeded run (default: `num_outputs` PNGs given by `outputOf`; a training's is `{version, weights}`). */
    private readonly produce?: (prediction: FakePrediction) => Promise<unknown>,
  ) {}

  create(id: string, input: Record<string, unknown>, extra: Partial<FakePrediction> = {}): FakePrediction {
    const prediction: FakePrediction = { id, status: 'starting', input, output: null, error: null, logs: '', created_at: new Date().toISOString(), ...extra };
    this.all.set(id, prediction);
    this.created.push(prediction);
    this.notify(prediction);
    this.later(() => this.step(prediction, 0), this.options.stepMs ?? 100);
    return prediction;
  }

  cancel(id: string): FakePrediction | undefined {
    const prediction = this.all.get(id);
    if (!prediction) return undefined;
    if (!isFinal(prediction)) {
      this.canceled.push(id);
      this.finish(prediction, 'canceled');
    }
    return prediction;
  }

  /** Resolves when the prediction is final. */
  whenFinal(id: string): Promise<void> {
    const prediction = this.all.get(id);
    if (!prediction || isFinal(prediction)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]));
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    for (const [id] of this.waiters) this.wake(id);
  }

  private step(prediction: FakePrediction, done: number): void {
    if (isFinal(prediction)) return;
    const steps = this.options.steps ?? 4;
    prediction.status = 'processing';
    if (done === 0) this.notify(prediction);
    const shown = this.failure === 'never-ends' ? Math.min(done, steps - 1) : done;
    const percent = Math.round((shown / steps) * 100);
    prediction.logs += `${String(percent).padStart(3)}%|${'█'.repeat(shown)}${' '.repeat(steps - shown)}| ${shown}/${steps}\n`;
    if (done < steps || this.failure === 'never-ends') {
      this.later(() => this.step(prediction, done + 1), this.options.stepMs ?? 100);
      return;
    }
    if (this.failure === 'prediction-fails') {
      prediction.error = 'CUDA out of memory. Tried to allocate 2.00 GiB';
      this.finish(prediction, 'failed');
      return;
    }
    void (this.produce ?? ((p: FakePrediction) => this.render(p)))(prediction).then((outputs) => {
      if (isFinal(prediction)) return;
      prediction.output = outputs;
      this.finish(prediction, 'succeeded');
    });
  }

  private async render(prediction: FakePrediction): Promise<string[]> {
    const n = Number(prediction.input.num_outputs ?? 1);
    const width = Number(prediction.input.width ?? 64);
    const height = Number(prediction.input.height ?? 64);
    const outputs: string[] = [];
    for (let i = 0; i < n; i++) {
      const drawn = await sharp({ create: { width, height, channels: 3, background: { r: 30 + 40 * i, g: 90, b: 160 } } }).png().toBuffer();
      const png = this.outputBytes?.(drawn) ?? drawn;
      this.images.push(png);
      outputs.push(this.outputOf(prediction.id, i, png));
    }
    return outputs;
  }

  private finish(prediction: FakePrediction, status: FakePrediction['status']): void {
    prediction.status = status;
    prediction.completed_at = new Date().toISOString();
    this.notify(prediction);
    this.wake(prediction.id);
  }

  private wake(id: string): void {
    for (const resolve of this.waiters.get(id) ?? []) resolve();
    this.waiters.delete(id);
  }

  private later(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }
}

export function isFinal(prediction: FakePrediction): boolean {
  return ['succeeded', 'failed', 'canceled'].includes(prediction.status);
}

/** A JSON answer. */
export function send(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function readJson(req: import('node:http').IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
