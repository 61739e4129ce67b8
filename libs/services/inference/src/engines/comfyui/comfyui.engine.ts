import { MAX_JOB_OUTPUTS } from '@genasset/contracts';
import { describeBackend, problems, type ComfyuiBackendConfig } from '@genasset/config';
import { parentOf } from '../backend/backend-images';
import { storeBackendFile } from '../backend/backend-outputs';
import { runOnce, Slots, type BackendEngine, type BackendTask, type TaskWhereabouts } from '../backend-engine';
import { EngineError, type EngineContext, type EngineJob, type EngineResult, type StoredOutput } from '../engine';
import { outputAssetType, routeOf } from '../modes';
import { ComfyuiClient, type FileRef, type HistoryEntry } from './comfyui.client';
import { DeadlinePassed, watchPrompt } from './comfyui-watch';
import { uploadInputs } from './comfyui-inputs';
import {
  bindWorkflow,
  nodeTypes,
  placeholderValues,
  readTemplate,
  readWorkflowFile,
  seedOf,
  unfilled,
  type Workflow,
} from './workflow';

/** What the worker puts in a prompt's `extra_data` (kept by ComfyUI in its queue and history): found again after a restart. */
interface Stamp {
  jobId: string;
  submission: string;
  seed: number;
  workflow: string;
  checkpoint?: unknown;
}


/**
 * Runs routes as ComfyUI workflows (docs/backends/comfyui.md): the route's workflow (the model's,
 * the backend's, else the built-in template) with the request bound to its placeholders, inputs
 * uploaded through /upload/image and /upload/mask, submitted with POST /prompt under a prompt_id the
 * worker chose (and stored first), followed over the websocket with /history as the truth, outputs
 * streamed from /view into storage (storeBackendFile). The runner keeps the task durable (backend-engine.ts).
 */
export class ComfyuiEngine implements BackendEngine {
  readonly kind = 'backend' as const;
  readonly type = 'comfyui';
  readonly name: string;
  readonly client: ComfyuiClient;
  private readonly slots: Slots;
  private readonly workflows = new Map<string, Workflow>();
  /** Nodes per submitted prompt, for progress across nodes (a resumed one is counted from the queue). */
  private readonly nodeCounts = new Map<string, number>();
  private nodeCheck?: { at: number; missing: Promise<string[]> };

  constructor(readonly config: ComfyuiBackendConfig) {
    this.name = config.name;
    this.client = new ComfyuiClient({
      name: config.name,
      url: config.url,
      headers: config.headers,
      requestTimeoutMs: config.timeouts.request,
    });
    this.slots = new Slots(config.concurrency);
    this.loadWorkflows();
  }

  supports(route: string): boolean {
    return this.config.routes.includes(route);
  }

  acquire(signal: AbortSignal): Promise<() => void> {
    return this.slots.acquire(signal);
  }

  run(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    return runOnce(this, job, ctx);
  }

  /** Every workflow this backend runs, by route and by model: for the /object_info check and docs. */
  allWorkflows(): Workflow[] {
    return [...new Set(this.workflows.values())];
  }

  async submit(job: EngineJob, ctx: EngineContext, submission: string): Promise<string> {
    const route = routeOf(job.mode, job.input);
    const workflow = this.workflowFor(route, job.modelId);
    const defaults = this.defaultsFor(job.modelId);
    const images = await uploadInputs(this.client, workflow, job.input, ctx, submission);
    const seed = seedOf(job.input);
    const values = placeholderValues(workflow, job.input, {
      defaults,
      seed,
      filenamePrefix: `genasset/${job.jobId}`,
      images,
    });
    const graph = bindWorkflow(workflow, values);
    const stamp: Stamp = { jobId: job.jobId, submission, seed, workflow: workflow.name, checkpoint: values.checkpoint };
    // client_id = the submission id: the websocket of that id gets this prompt's messages, also after a restart.
    const handle = await this.client.submit(graph, submission, submission, { genasset: stamp }, ctx.signal);
    this.nodeCounts.set(handle, Object.keys(graph).length);
    return handle;
  }

  /**
   * Finds a submission: by its handle, else (intent only: the worker died around POST /prompt) by
   * the prompt_id it was submitted under, else by the submission id in its extra_data (servers
   * that choose their own prompt_id). The queue first, then the history: a prompt only moves from
   * the queue to the history, in one step under the queue's lock (ComfyUI's PromptQueue.task_done,
   * execution.py), so one that finishes between the two reads shows in the second. Read the other
   * way round, a prompt finishing in between was in neither, and a resumed job failed as lost
   * (seen in CI: comfyui-crash.int-spec).
   */
  async locate(task: BackendTask): Promise<TaskWhereabouts> {
    const id = task.handle ?? task.submission;
    const queue = await this.client.queue();
    const match = (item: unknown[]) => item[1] === id || stampOf(item[3])?.submission === task.submission;
    const running = queue.running.find(match);
    const pending = queue.pending.find(match);
    const found = running ?? pending;
    if (found) {
      const handle = String(found[1]);
      if (found[2] && typeof found[2] === 'object') this.nodeCounts.set(handle, Object.keys(found[2]).length);
      return { state: running ? 'running' : 'queued', handle };
    }
    if (await this.client.history(id)) return { state: 'finished', handle: id };
    if (!task.handle) {
      const history = await this.client.allHistory();
      for (const [handle, entry] of Object.entries(history))
        if (stampOf(entry.prompt?.[3])?.submission === task.submission) return { state: 'finished', handle };
    }
    return { state: 'missing' };
  }

  async collect(job: EngineJob, ctx: EngineContext, task: Required<BackendTask>): Promise<EngineResult> {
    const route = routeOf(job.mode, job.input);
    let entry: HistoryEntry;
    try {
      entry = await watchPrompt(this.client, {
        promptId: task.handle,
        clientId: task.submission,
        nodeCount: this.nodeCounts.get(task.handle) ?? 0,
        signal: ctx.signal,
        pollIntervalMs: this.config.pollInterval,
        deadline: Date.now() + this.config.timeouts.job,
        onProgress: (fraction) => void ctx.progress(fraction).catch(() => undefined),
      });
    } catch (error) {
      if (!(error instanceof DeadlinePassed)) throw error;
      await this.cancel(task);
      throw new EngineError(`${this.client.label} did not finish ${route} within ${seconds(this.config.timeouts.job)}; the work was interrupted`);
    } finally {
      this.nodeCounts.delete(task.handle);
    }
    if (entry.status?.status_str === 'error' || entry.status?.completed === false)
      throw new EngineError(`${this.client.label} failed the workflow: ${executionError(entry)}`);
    const files = outputFiles(entry);
    const stamp = stampOf(entry.prompt?.[3]);
    const workflow = stamp?.workflow ?? this.workflowFor(route, job.modelId).name;
    if (files.length === 0)
      throw new EngineError(`${this.client.label} finished the ${workflow} workflow without an image output (no SaveImage node wrote a file of type output)`);
    const parentAssetId = parentOf(job.input);
    const outputs: StoredOutput[] = [];
    for (const file of files.slice(0, MAX_JOB_OUTPUTS)) {
      const chunks = await this.client.view(file, this.config.maxOutputBytes, ctx.signal);
      const metadata = {
        backend: this.name,
        ...(typeof stamp?.checkpoint === 'string' ? { backendModel: stamp.checkpoint } : {}),
        seed: stamp?.seed ?? seedOf(job.input),
        workflow,
        promptId: task.handle,
      };
      const output = { assetType: outputAssetType(job.mode), ...(parentAssetId ? { parentAssetId } : {}), metadata };
      outputs.push(await storeBackendFile(ctx, this.client.label, route, { what: file.filename, chunks, file: output }));
    }
    return {
      outputs,
      extra: { engine: this.type, backend: this.name, ...(stamp ? { seed: stamp.seed } : {}) },
    };
  }

  /** Removes the prompt from the queue, and interrupts it when it is the one running (interrupt stops whatever runs on older servers). */
  async cancel(task: BackendTask): Promise<void> {
    const id = task.handle ?? task.submission;
    const queue = await this.client.queue();
    const mine = (item: unknown[]) => item[1] === id;
    if (queue.pending.some(mine)) await this.client.deleteQueued(id);
    if (queue.running.some(mine)) await this.client.interrupt(id);
  }

  /**
   * Node types the backend lacks, each with the workflows using it (checked against /object_info,
   * cached a minute: readiness probes run often and /object_info is large). Throws when the backend
   * cannot be reached.
   */
  async problems(): Promise<string[]> {
    await this.client.queue(); // reachable now (the node check below is cached)
    const missing = await this.missingNodes();
    return missing.length ? [`missing node types: ${missing.join('; ')}`] : [];
  }

  get description(): string {
    return describeBackend(this.config);
  }

  get checkTimeoutMs(): number {
    return this.config.timeouts.request;
  }

  missingNodes(): Promise<string[]> {
    if (!this.nodeCheck || Date.now() - this.nodeCheck.at > 60_000) {
      const missing = this.client.objectInfo().then((info) => {
        const lacking = new Map<string, string[]>();
        for (const workflow of this.allWorkflows())
          for (const type of nodeTypes(workflow)) if (!(type in info)) lacking.set(type, [...(lacking.get(type) ?? []), workflow.name]);
        return [...lacking].map(([type, names]) => `${type} (${names.join(', ')})`);
      });
      this.nodeCheck = { at: Date.now(), missing };
      missing.catch(() => (this.nodeCheck = undefined));
    }
    return this.nodeCheck.missing;
  }

  private workflowFor(route: string, modelId?: string): Workflow {
    const workflow = (modelId && this.workflows.get(`${route}@${modelId}`)) || this.workflows.get(route);
    if (!workflow) throw new EngineError(`${this.client.label} has no workflow for ${route}`);
    return workflow;
  }

  private defaultsFor(modelId?: string): Record<string, unknown> {
    return { ...this.config.defaults, ...(modelId ? this.config.models[modelId]?.defaults : undefined) };
  }

  /** Reads and checks every workflow at start: a file that is missing, not API format, or with a placeholder nothing fills fails start-up. */
  private loadWorkflows(): void {
    const found: string[] = [];
    const at = `backends.${this.name}`;
    const load = (route: string, file: string | undefined, key: string, defaults: Record<string, unknown>, where: string) => {
      try {
        const workflow = file ? readWorkflowFile(file) : readTemplate(route);
        if (!workflow) {
          found.push(`${at}.routes: ${route} has no built-in workflow: give one under ${at}.workflows.${route}`);
          return;
        }
        const lacking = unfilled(workflow, defaults);
        if (lacking.length)
          found.push(`${where}: the ${route} workflow ${workflow.name} needs ${lacking.map((p) => `{{${p}}}`).join(', ')}: set ${at}.defaults.${lacking[0]}`);
        this.workflows.set(key, workflow);
      } catch (error) {
        found.push(`${where}: ${(error as Error).message}`);
      }
    };
    for (const route of this.config.routes)
      load(route, this.config.workflowFiles[route], route, this.config.defaults, `${at}.workflows.${route}`);
    for (const [modelId, files] of Object.entries(this.config.modelWorkflowFiles)) {
      const defaults = this.defaultsFor(modelId);
      for (const route of this.config.routes)
        if (files[route] || Object.keys(this.config.models[modelId].defaults).length)
          load(route, files[route] ?? this.config.workflowFiles[route], `${route}@${modelId}`, defaults, `${at}.models.${modelId}.workflows.${route}`);
    }
    if (found.length) throw problems(found);
  }
}

function stampOf(extra: unknown): Stamp | undefined {
  const stamp = (extra as { genasset?: Partial<Stamp> } | undefined)?.genasset;
  return stamp && typeof stamp.submission === 'string' ? (stamp as Stamp) : undefined;
}

/** Output images of a finished prompt, node by node (type `output`: `temp` files are previews). */
function outputFiles(entry: HistoryEntry): FileRef[] {
  const files: FileRef[] = [];
  const nodes = Object.keys(entry.outputs ?? {}).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  for (const node of nodes) {
    const images = entry.outputs?.[node]?.images;
    if (!Array.isArray(images)) continue;
    for (const image of images as Partial<FileRef>[])
      if (image && typeof image.filename === 'string' && (image.type ?? 'output') === 'output')
        files.push({ filename: image.filename, subfolder: image.subfolder ?? '', type: 'output' });
  }
  return files;
}

/** The reason of a failed prompt, from its execution_error message: `KSampler (node 3): <exception>`. */
function executionError(entry: HistoryEntry): string {
  for (const [type, data] of entry.status?.messages ?? []) {
    if (type === 'execution_error') {
      const message = String(data.exception_message ?? 'an error').trim().split('\n')[0].slice(0, 300);
      return `${String(data.node_type ?? 'a node')} (node ${String(data.node_id ?? '?')}): ${message}`;
    }
    if (type === 'execution_interrupted') return 'it was interrupted on the server';
  }
  return 'it ended with an error and no message';
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);
