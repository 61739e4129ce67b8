import WebSocket from 'ws';
import { BackendHttp, type BackendRequestInit } from '../backend/backend-http';
import type { EngineError } from '../engine';
import type { ApiGraph } from './workflow';

/** A file on the ComfyUI server: what /upload answers and /history lists. */
export interface FileRef {
  filename: string;
  subfolder: string;
  type: string;
}

/** One entry of GET /history/{prompt_id}: present only once the prompt has finished (success or error). */
export interface HistoryEntry {
  /** `[number, prompt_id, graph, extra_data, outputs_to_execute]` */
  prompt?: unknown[];
  outputs?: Record<string, Record<string, unknown>>;
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] };
}

/** Queue items are `[number, prompt_id, graph, extra_data, outputs_to_execute, …]`. */
export interface QueueState {
  running: unknown[][];
  pending: unknown[][];
}

export interface ComfyuiClientSettings {
  /** The backend's name in the backends file (errors name it). */
  name: string;
  url: string;
  /** Credential headers (secrets: never logged). */
  headers: Record<string, string>;
  requestTimeoutMs: number;
}

/**
 * ComfyUI's HTTP and websocket API (server.py): the calls the engine makes, each with the
 * backend's credential headers and a timeout (BackendHttp). A connection failure, 5xx, 408 or 429
 * is a TransientError (the job is tried again later, its stored handle resumed); a refusal (4xx) or
 * a body that is not what the call answers is an EngineError naming the call.
 */
export class ComfyuiClient {
  readonly label: string;
  private readonly http: BackendHttp;

  constructor(private readonly settings: ComfyuiClientSettings) {
    this.label = `the comfyui backend ${settings.name}`;
    // 429 is a transient failure at once: ComfyUI queues, it does not rate-limit (a proxy in front might).
    this.http = new BackendHttp({
      label: this.label,
      url: settings.url,
      headers: settings.headers,
      requestTimeoutMs: settings.requestTimeoutMs,
      message: serverMessage,
    });
  }

  /** POST /prompt; `promptId` is honoured by current servers (older ones choose their own, returned here). */
  async submit(graph: ApiGraph, promptId: string, clientId: string, extra: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
    const answer = await this.json('POST /prompt', 'prompt', {
      method: 'POST',
      body: JSON.stringify({ prompt: graph, prompt_id: promptId, client_id: clientId, extra_data: extra }),
      signal,
    });
    const id = (answer as { prompt_id?: unknown }).prompt_id;
    if (typeof id !== 'string' || !id) throw this.invalid('POST /prompt', 'no prompt_id');
    return id;
  }

  /** GET /history/{id}: the entry, or undefined while the prompt is queued, running, or unknown. */
  async history(promptId: string, signal?: AbortSignal): Promise<HistoryEntry | undefined> {
    const answer = await this.json('GET /history', `history/${encodeURIComponent(promptId)}`, { signal });
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw this.invalid('GET /history', 'expected an object');
    const entry = (answer as Record<string, unknown>)[promptId];
    if (entry === undefined) return undefined;
    if (!entry || typeof entry !== 'object') throw this.invalid('GET /history', `the entry of ${promptId} is not an object`);
    return entry as HistoryEntry;
  }

  /** The whole history (to find a submission by its extra_data on servers that chose their own prompt_id). */
  async allHistory(signal?: AbortSignal): Promise<Record<string, HistoryEntry>> {
    const answer = await this.json('GET /history', 'history?max_items=256', { signal });
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw this.invalid('GET /history', 'expected an object');
    return answer as Record<string, HistoryEntry>;
  }

  async queue(signal?: AbortSignal): Promise<QueueState> {
    const answer = (await this.json('GET /queue', 'queue', { signal })) as { queue_running?: unknown; queue_pending?: unknown };
    if (!Array.isArray(answer?.queue_running) || !Array.isArray(answer?.queue_pending))
      throw this.invalid('GET /queue', 'expected queue_running and queue_pending lists');
    return { running: answer.queue_running as unknown[][], pending: answer.queue_pending as unknown[][] };
  }

  async objectInfo(signal?: AbortSignal): Promise<Record<string, unknown>> {
    const answer = await this.json('GET /object_info', 'object_info', { signal });
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw this.invalid('GET /object_info', 'expected an object');
    return answer as Record<string, unknown>;
  }

  /** POST /upload/image or /upload/mask (multipart, as ComfyUI's own front end sends it). */
  async upload(
    kind: 'image' | 'mask',
    bytes: Buffer,
    filename: string,
    fields: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<FileRef> {
    const form = new FormData();
    form.set('image', new Blob([bytes], { type: 'image/png' }), filename);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const answer = (await this.json(`POST /upload/${kind}`, `upload/${kind}`, { method: 'POST', body: form, signal })) as Partial<FileRef> & {
      name?: unknown;
    };
    if (typeof answer?.name !== 'string' || !answer.name) throw this.invalid(`POST /upload/${kind}`, 'no name');
    return { filename: answer.name, subfolder: typeof answer.subfolder === 'string' ? answer.subfolder : '', type: answer.type ?? 'input' };
  }

  /** GET /view: an output file's bytes as they arrive, refused past `maxBytes` (never holding more). */
  view(file: FileRef, maxBytes: number, signal?: AbortSignal): Promise<AsyncIterable<Buffer>> {
    const query = new URLSearchParams({ filename: file.filename, subfolder: file.subfolder, type: file.type });
    return this.http.open(`view?${query}`, maxBytes, file.filename, signal);
  }

  /** POST /interrupt with the prompt_id (servers that do not read it interrupt whatever runs: only called for ours while running). */
  async interrupt(promptId: string): Promise<void> {
    await this.call('POST /interrupt', 'interrupt', { method: 'POST', body: JSON.stringify({ prompt_id: promptId }) });
  }

  /** POST /queue {delete: [id]}: removes a prompt still waiting. */
  async deleteQueued(promptId: string): Promise<void> {
    await this.call('POST /queue', 'queue', { method: 'POST', body: JSON.stringify({ delete: [promptId] }) });
  }

  /** The websocket of `clientId` (ComfyUI sends a prompt's messages to the client id it was submitted with). */
  socket(clientId: string): WebSocket {
    const url = new URL(`ws?clientId=${encodeURIComponent(clientId)}`, this.http.base);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return new WebSocket(url, { headers: this.settings.headers, handshakeTimeout: this.settings.requestTimeoutMs });
  }

  private json(call: string, path: string, init: BackendRequestInit): Promise<unknown> {
    return this.http.json(call, path, init);
  }

  private call(call: string, path: string, init: BackendRequestInit): Promise<Response> {
    return this.http.call(call, path, init);
  }

  private invalid(call: string, what: string): EngineError {
    return this.http.invalid(call, what);
  }
}

/**
 * The words of a ComfyUI error body: `{error: {message, details}, node_errors: {<id>: {class_type,
 * errors: [{message, details}]}}}` (a refused prompt) or `{error: "…"}`, cut to 300 characters.
 */
export function serverMessage(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.replace(/\s+/g, ' ').trim().slice(0, 300);
  }
  const b = body as { error?: unknown; message?: unknown; node_errors?: unknown };
  const error = b.error as { message?: unknown; details?: unknown } | string | undefined;
  const parts: string[] = [];
  if (typeof error === 'string') parts.push(error);
  else if (error && typeof error.message === 'string')
    parts.push(error.details && typeof error.details === 'string' ? `${error.message}: ${error.details}` : error.message);
  else if (typeof b.message === 'string') parts.push(b.message);
  if (b.node_errors && typeof b.node_errors === 'object')
    for (const [id, node] of Object.entries(b.node_errors as Record<string, { class_type?: string; errors?: { message?: string; details?: string }[] }>))
      for (const e of node.errors ?? []) parts.push(`node ${id} (${node.class_type ?? '?'}): ${e.message ?? ''}${e.details ? ` (${e.details})` : ''}`);
  return parts.join('; ').replace(/\s+/g, ' ').slice(0, 300);
}
