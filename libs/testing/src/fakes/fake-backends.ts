/**
 * The four backend fakes at once (ComfyUI, OpenAI-compatible, Replicate, Cog) and the backends
 * file that connects a worker to them, each backend on a route of its own: for tests that run every
 * engine the same way (table-driven), in one process or across the deployed processes. The fakes
 * follow their upstream files (cited in each fake).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeCog } from './cog/fake-cog';
import { FakeComfyui } from './comfyui/fake-comfyui';
import { FakeOpenai } from './openai/fake-openai';
import { FakeReplicate } from './replicate/fake-replicate';
import { waitFor } from '../wait-for';

/** Writes `{ backends }` to a backends file of its own (INFERENCE_BACKENDS_FILE) and returns its path. */
export function writeBackendsFile(backends: Record<string, Record<string, unknown>>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'backends-')), 'backends.json');
  writeFileSync(file, JSON.stringify({ backends }));
  return file;
}

/** The Replicate version the `hosted` backend's img2img runs. */
export const FAKE_SDXL_VERSION = '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc';

/** One engine of the table: a request it serves and what it must produce. */
export interface FakeBackendCase {
  engine: 'comfyui' | 'openai' | 'replicate' | 'cog';
  /** The backend's name in the backends file. */
  backend: string;
  /** How the worker's errors name the backend: `the comfyui backend gpu1`. */
  label: string;
  /** How errors name the engine's first output file. */
  what: RegExp;
  mode: string;
  /** The generate body (`picture`: an input image as a data URL). */
  body(picture: string): Record<string, unknown>;
  /** Every output file the fake served so far (an asset must hold one of them exactly). */
  served(): Buffer[];
  /** Replaces what each output file holds (undefined: the PNG drawn). */
  replace(bytes: ((png: Buffer) => Buffer) | undefined): void;
  /** What the output assets' metadata records of the backend (besides `engine`). */
  metadata: Record<string, unknown>;
}

export interface FakeBackends {
  comfy: FakeComfyui;
  openai: FakeOpenai;
  replicate: FakeReplicate;
  cog: FakeCog;
  /** The environment a worker needs: INFERENCE_BACKENDS_FILE and the credentials it names. */
  env: Record<string, string>;
  cases: FakeBackendCase[];
  close(): Promise<void>;
}

/** Each engine startFakeBackends connects and the route it serves: the rows of a table-driven test. */
export const FAKE_BACKEND_ROUTES: readonly (readonly [FakeBackendCase['engine'], string])[] = [
  ['comfyui', 'txt2img'],
  ['openai', 'prompt-editing'],
  ['replicate', 'img2img'],
  ['cog', 'upscale'],
];

/**
 * Starts the four fakes and writes a backends file: `gpu1` (comfyui, txt2img), `gpt` (openai,
 * prompt-editing), `hosted` (replicate, img2img; callbacks to nowhere, so polled) and `cog1` (cog,
 * upscale), each taking outputs of at most `maxOutputBytes`.
 */
export async function startFakeBackends(options: { maxOutputBytes?: number } = {}): Promise<FakeBackends> {
  const [comfy, openai, replicate, cog] = await Promise.all([
    FakeComfyui.start({ stepDelayMs: 10 }),
    FakeOpenai.start({ apiKey: 'sk-test' }),
    FakeReplicate.start({ token: 'r8_test', steps: 2, stepMs: 50 }),
    FakeCog.start({ steps: 2, stepMs: 50 }),
  ]);
  const common = { ...(options.maxOutputBytes ? { maxOutputBytes: options.maxOutputBytes } : {}), timeouts: { request: '5s', job: '60s' } };
  const polled = { ...common, pollInterval: '100ms' };
  const file = writeBackendsFile({
    gpu1: { type: 'comfyui', url: comfy.url, routes: ['txt2img'], defaults: { checkpoint: 'sd15.safetensors' }, ...polled },
    gpt: {
      type: 'openai',
      url: openai.url,
      credentials: { scheme: 'bearer', tokenEnv: 'FAKE_OPENAI_KEY' },
      routes: ['prompt-editing'],
      models: { image: 'gpt-image-1' },
      ...common,
    },
    hosted: {
      type: 'replicate',
      url: replicate.url,
      credentials: { scheme: 'bearer', tokenEnv: 'FAKE_REPLICATE_TOKEN' },
      routes: ['img2img'],
      models: { img2img: `stability-ai/sdxl:${FAKE_SDXL_VERSION}` },
      callbackUrl: 'http://127.0.0.1:9/',
      ...polled,
    },
    cog1: { type: 'cog', url: cog.url, routes: ['upscale'], ...polled },
  });
  const cases: FakeBackendCase[] = [
    {
      engine: 'comfyui',
      backend: 'gpu1',
      label: 'the comfyui backend gpu1',
      what: /_\d{5}_\.png/,
      mode: 'txt2img',
      body: () => ({ modelId: 'sd15', prompt: 'a comfy lighthouse', seed: 41, width: 64, height: 64 }),
      served: () => [...comfy.files.entries()].filter(([key]) => key.startsWith('output/')).map(([, bytes]) => bytes),
      replace: (bytes) => (comfy.outputBytes = bytes),
      metadata: { backend: 'gpu1', backendModel: 'sd15.safetensors', seed: '41', workflow: 'txt2img.json (built-in)' },
    },
    {
      engine: 'openai',
      backend: 'gpt',
      label: 'the openai backend gpt',
      what: /image 1/,
      mode: 'prompt-editing',
      body: (picture) => ({ image: picture, prompt: 'make it dusk' }),
      served: () => openai.images,
      replace: (bytes) => (openai.outputBytes = bytes),
      metadata: { backend: 'gpt', backendModel: 'gpt-image-1' },
    },
    {
      engine: 'replicate',
      backend: 'hosted',
      label: 'the replicate backend hosted',
      what: /output 1/,
      mode: 'img2img',
      body: (picture) => ({ modelId: 'sd15', image: picture, prompt: 'a hosted lighthouse', seed: 43 }),
      served: () => replicate.predictions.images,
      replace: (bytes) => (replicate.predictions.outputBytes = bytes),
      metadata: { backend: 'hosted', backendModel: `stability-ai/sdxl:${FAKE_SDXL_VERSION}`, seed: '43' },
    },
    {
      engine: 'cog',
      backend: 'cog1',
      label: 'the cog backend cog1',
      what: /output 1/,
      mode: 'upscale',
      body: (picture) => ({ image: picture, seed: 44 }),
      served: () => cog.predictions.images,
      replace: (bytes) => (cog.predictions.outputBytes = bytes),
      metadata: { backend: 'cog1', seed: '44' },
    },
  ];
  return {
    comfy,
    openai,
    replicate,
    cog,
    env: { INFERENCE_BACKENDS_FILE: file, FAKE_OPENAI_KEY: 'sk-test', FAKE_REPLICATE_TOKEN: 'r8_test' },
    cases,
    async close() {
      await Promise.all([comfy.close(), openai.close(), replicate.close(), cog.close()]);
    },
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the public API's JSON bodies, as tests read them */

/** How a test reaches the deployment under test (one process, or the gateway of many). */
export interface DeploymentClient {
  /** An authenticated request of the tenant: status and parsed body. */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The `generation.completed` event of a job, its signature verified by the test's receiver. */
  completed(jobId: string): Promise<{ type: string; data: any }>;
}

/** What one generation on a backend came to, for the test to compare with what the fake served. */
export interface BackendRun {
  job: any;
  asset: any;
  /** The bytes of the job's first output asset, fetched from its signed URL. */
  bytes: Buffer;
  event: { type: string; data: any };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Generates on one backend as a client does: POST /v1/generate/{mode}, the job polled until final,
 * its first asset and that asset's bytes read, and the job's signed `generation.completed` awaited.
 */
export async function generateOnBackend(c: FakeBackendCase, picture: string, client: DeploymentClient, timeoutMs = 60_000): Promise<BackendRun> {
  const generated = await client.request('POST', `/v1/generate/${c.mode}`, c.body(picture));
  if (generated.status !== 200) throw new Error(`generate ${c.mode}: ${generated.status} ${JSON.stringify(generated.body)}`);
  const jobId = generated.body.job.jobId as string;
  const job = await waitFor(
    async () => {
      const res = await client.request('GET', `/v1/jobs/${jobId}`);
      return ['success', 'failure', 'canceled'].includes(res.body?.job?.status) ? res.body.job : undefined;
    },
    { timeoutMs, intervalMs: 200, what: `job ${jobId} (${c.engine}) to finish` },
  );
  if (job.status !== 'success') throw new Error(`job ${jobId} on ${c.backend}: ${job.status} ${JSON.stringify(job.metadata?.output)}`);
  const assetId = (job.metadata.assetIds as string[])[0];
  const asset = (await client.request('GET', `/v1/assets/${assetId}?originalAssets=true`)).body.asset;
  const content = await fetch(asset.url as string);
  if (!content.ok) throw new Error(`asset ${assetId} content: ${content.status}`);
  const bytes = Buffer.from(await content.arrayBuffer());
  return { job, asset, bytes, event: await client.completed(jobId) };
}
