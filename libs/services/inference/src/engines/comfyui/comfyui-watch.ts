import type WebSocket from 'ws';
import { EngineAborted, EngineError } from '../engine';
import type { ComfyuiClient, HistoryEntry } from './comfyui.client';

export interface WatchOptions {
  promptId: string;
  clientId: string;
  /** Nodes in the graph (for progress across nodes); 0 when unknown: the sampler's steps alone then. */
  nodeCount: number;
  signal: AbortSignal;
  pollIntervalMs: number;
  /** Epoch ms past which the work is given up. */
  deadline: number;
  onProgress(fraction: number): void;
}

/** Terminal websocket messages of a prompt (execution.py; `executing` with `node: null` from main.py's prompt_worker). */
const TERMINAL = new Set(['execution_success', 'execution_error', 'execution_interrupted']);

/**
 * Waits for a prompt to finish and returns its history entry. Progress comes from the websocket
 * (`execution_cached`, `executing`, `progress`, `executed`); completion is always read from
 * `/history/{id}`, the truth. The socket is a hint: when it drops (or never opens) the watch
 * carries on by polling /history, and while it is up it still polls, less often, so a missed
 * message costs a delay, never the job. A prompt neither in the history nor in the queue was lost
 * by the backend (restarted, queue cleared): the job fails saying so.
 */
export async function watchPrompt(client: ComfyuiClient, options: WatchOptions): Promise<HistoryEntry> {
  const { promptId, signal } = options;
  let socket: WebSocket | undefined;
  let socketUp = false;
  let wake: (() => void) | undefined;
  // Set by a message arriving while a call is in flight: the next look comes at once.
  let nudged = false;
  const nudge = () => {
    nudged = true;
    wake?.();
  };
  const done = new Set<string>();
  let current: { node: string; fraction: number } | undefined;
  let best = 0;
  const report = () => {
    const total = options.nodeCount;
    const fraction = total > 0 ? Math.min(1, (done.size + (current?.fraction ?? 0)) / total) : (current?.fraction ?? 0);
    if (fraction > best) {
      best = fraction;
      options.onProgress(fraction);
    }
  };
  const onMessage = (raw: WebSocket.RawData, binary: boolean) => {
    if (binary) return; // previews
    let message: { type?: string; data?: Record<string, unknown> };
    try {
      message = JSON.parse(raw.toString()) as typeof message;
    } catch {
      return;
    }
    const data = message.data ?? {};
    if (data.prompt_id !== undefined && data.prompt_id !== promptId) return;
    switch (message.type) {
      case 'execution_cached':
        for (const node of (data.nodes as string[] | undefined) ?? []) done.add(String(node));
        break;
      case 'executing':
        if (current) done.add(current.node);
        if (data.node === null || data.node === undefined) {
          current = undefined;
          if (data.prompt_id === promptId) nudge();
        } else current = { node: String(data.node), fraction: 0 };
        break;
      case 'progress': {
        const value = Number(data.value);
        const max = Number(data.max);
        if (max > 0 && Number.isFinite(value)) current = { node: String(data.node ?? current?.node ?? ''), fraction: Math.min(1, value / max) };
        break;
      }
      case 'executed':
        done.add(String(data.node));
        break;
      default:
        if (message.type && TERMINAL.has(message.type)) nudge();
    }
    report();
  };
  try {
    socket = client.socket(options.clientId);
    socket.on('open', () => (socketUp = true));
    socket.on('message', onMessage);
    socket.on('close', () => {
      socketUp = false;
      nudge();
    });
    socket.on('error', () => {
      socketUp = false;
    });
  } catch {
    socket = undefined;
  }
  const abort = () => nudge();
  signal.addEventListener('abort', abort);
  try {
    let polls = 0;
    for (;;) {
      if (signal.aborted) throw new EngineAborted();
      const entry = await client.history(promptId, signal);
      if (entry && finished(entry)) return entry;
      // Not in the history: still queued or running — or lost. Asked in this order (queue, then
      // history again) so a prompt finishing between the two calls is never taken for lost.
      if (!entry && polls % 5 === 0) {
        const queue = await client.queue(signal);
        const inQueue = [...queue.running, ...queue.pending].some((item) => item[1] === promptId);
        if (!inQueue) {
          const again = await client.history(promptId, signal);
          if (again && finished(again)) return again;
          throw new EngineError(
            `${client.label} lost the job: prompt ${promptId} is neither in its queue nor in its history (was the server restarted or its queue cleared?)`,
          );
        }
      }
      polls++;
      if (Date.now() > options.deadline) throw new DeadlinePassed();
      // With the socket up, a terminal message wakes this at once; the poll is the safety net.
      if (nudged) {
        nudged = false;
        continue;
      }
      await sleepUntil(socketUp ? options.pollIntervalMs * 5 : options.pollIntervalMs, (w) => (wake = w), options.deadline);
      nudged = false;
    }
  } finally {
    signal.removeEventListener('abort', abort);
    socket?.removeAllListeners();
    socket?.on('error', () => undefined);
    socket?.terminate();
  }
}

/** The work ran past the backend's job timeout. */
export class DeadlinePassed extends Error {}

function finished(entry: HistoryEntry): boolean {
  return entry.status === undefined || entry.status.completed === true || entry.status.status_str === 'success' || entry.status.status_str === 'error';
}

function sleepUntil(ms: number, setWake: (wake: () => void) => void, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, Math.min(ms, deadline - Date.now() + 10)));
    function done() {
      clearTimeout(timer);
      setWake(() => undefined);
      resolve();
    }
    setWake(done);
  });
}
