import { setTimeout as sleep } from 'node:timers/promises';
import { TransientError } from '../../work/transient-error';
import { EngineAborted, EngineError } from '../engine';
import { tooLarge } from './backend-outputs';

export interface BackendHttpSettings {
  /** `the openai backend gpt`: how errors name the backend. */
  label: string;
  /** Base URL; paths are resolved against it (a trailing slash is added). */
  url: string;
  /** Credential headers (secrets: never logged, never sent to another origin). */
  headers: Record<string, string>;
  requestTimeoutMs: number;
  /** 429: waited out in the call (retry-after, at most maxWaitMs) up to `retries` times; absent: a transient failure at once. */
  rateLimit?: { retries: number; maxWaitMs: number };
  /** The server's words in an error body (defaults to `error.message` / `error` / `detail` / the text). */
  message?: (body: string) => string;
}

export type BackendRequestInit = Omit<RequestInit, 'headers'> & { signal?: AbortSignal; headers?: Record<string, string> };
type Init = BackendRequestInit;

/**
 * HTTP calls to a backend, each with its credential headers and a timeout. A connection failure,
 * a timeout, 5xx, 408 or 429 (after the rate-limit waits) is a TransientError — the job runs again
 * later; a refusal (other 4xx) or a body that is not what the call answers is an EngineError naming
 * the call and the server's own words. An aborted signal (cancel, shutdown) is EngineAborted.
 */
export class BackendHttp {
  readonly base: string;

  constructor(readonly settings: BackendHttpSettings) {
    this.base = settings.url.endsWith('/') ? settings.url : `${settings.url}/`;
  }

  get label(): string {
    return this.settings.label;
  }

  /**
   * Calls and parses the JSON answer. `maxBytes` bounds an answer that carries files inline (base64
   * images, data URLs): read as it arrives, refused once longer, never held beyond it.
   */
  async json(call: string, path: string, init: Init = {}, maxBytes?: number): Promise<unknown> {
    const response = await this.call(call, path, init);
    const text = maxBytes === undefined ? await response.text() : await this.boundedText(response, call, maxBytes);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.invalid(call, 'expected JSON');
    }
  }

  /** Like `json`, but a 404 answers undefined (a lookup of something the backend may not know). */
  async jsonOrMissing(call: string, path: string, init: Init = {}): Promise<unknown> {
    const response = await this.call(call, path, init, [404]);
    if (response.status === 404) return undefined;
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.invalid(call, 'expected JSON');
    }
  }

  /** Calls; an answer whose status is in `pass` is returned as it is, not turned into an error. */
  async call(call: string, path: string, init: Init = {}, pass: number[] = []): Promise<Response> {
    const limit = this.settings.rateLimit;
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(call, new URL(path, this.base), init, this.settings.headers);
      if (response.ok || pass.includes(response.status)) return response;
      const message = (this.settings.message ?? defaultMessage)(await response.text().catch(() => ''));
      const status = `HTTP ${response.status}${message ? `: ${message}` : ''}`;
      if (response.status === 429) {
        const wait = retryAfterMs(response.headers) ?? 1000 * 2 ** attempt;
        if (limit && attempt < limit.retries && wait <= limit.maxWaitMs) {
          await sleep(wait, undefined, init.signal ? { signal: init.signal } : undefined).catch(() => {
            throw new EngineAborted();
          });
          continue;
        }
        throw new TransientError(`${this.label} is rate limited (${call}: ${status})`);
      }
      if (response.status >= 500 || response.status === 408) throw new TransientError(`${this.label} failed (${call}: ${status})`);
      throw new EngineError(`${this.label} refused ${call} (${status})`);
    }
  }

  /**
   * Opens a file the backend names by URL (an output) as a stream of chunks: a declared length
   * over `maxBytes` is refused before any byte, and the stream throws as soon as more than
   * `maxBytes` arrived (it never holds more). Credentials go only to the backend's own origin.
   */
  async open(url: string, maxBytes: number, what: string, signal?: AbortSignal): Promise<AsyncIterable<Buffer>> {
    let target: URL;
    try {
      target = new URL(url, this.base);
    } catch {
      throw this.invalid(`the output ${what}`, `not a URL`);
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw this.invalid(`the output ${what}`, 'not an http(s) URL');
    const sameOrigin = target.origin === new URL(this.base).origin;
    const response = await this.send(`GET ${what}`, target, { signal }, sameOrigin ? this.settings.headers : {});
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const status = `HTTP ${response.status}`;
      if (response.status >= 500 || response.status === 429 || response.status === 408)
        throw new TransientError(`${this.label}'s output ${what} could not be fetched (${status})`);
      throw new EngineError(`${this.label}'s output ${what} could not be fetched (${status}; expired?)`);
    }
    return limited(response, maxBytes, (size) => tooLarge(this.label, what, size, maxBytes));
  }

  /** The text of an answer, refused past `maxBytes` (a declared length at once, else as it arrives). */
  private async boundedText(response: Response, call: string, maxBytes: number): Promise<string> {
    const refuse = (size: string) =>
      new EngineError(`${this.label} answered ${call} with ${size} bytes; this worker takes at most ${maxBytes} (the files it carries are limited by the backend's maxOutputBytes)`);
    const chunks: Buffer[] = [];
    for await (const chunk of await limited(response, maxBytes, refuse)) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }

  invalid(call: string, what: string): EngineError {
    return new EngineError(`${this.label} answered ${call} with an invalid body: ${what}`);
  }

  private async send(call: string, url: URL, init: Init, credentials: Record<string, string>): Promise<Response> {
    const timeout = AbortSignal.timeout(this.settings.requestTimeoutMs);
    try {
      return await fetch(url, {
        ...init,
        headers: {
          ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
          ...credentials,
        },
        signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
        // A redirect could carry the credentials elsewhere.
        redirect: 'error',
      });
    } catch (error) {
      if (init.signal?.aborted) throw new EngineAborted();
      throw new TransientError(
        timeout.aborted ? `${this.label} did not answer ${call} within ${this.settings.requestTimeoutMs} ms` : `${this.label} could not be reached`,
        error,
      );
    }
  }
}

/**
 * A response body as chunks, refused past `maxBytes`: a declared length over it before any byte,
 * else as soon as more arrived (never holding more).
 */
async function limited(response: Response, maxBytes: number, refuse: (size: string) => EngineError): Promise<AsyncIterable<Buffer>> {
  const body = response.body;
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await body?.cancel().catch(() => undefined);
    throw refuse(String(declared));
  }
  return (async function* () {
    let size = 0;
    for await (const chunk of body ?? []) {
      size += chunk.length;
      if (size > maxBytes) {
        await body?.cancel().catch(() => undefined);
        throw refuse(`more than ${maxBytes}`);
      }
      yield Buffer.from(chunk);
    }
  })();
}

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** `{error: {message}}`, `{error: "…"}`, `{detail: "…"}` (Cog, Replicate), else the text; one line, 300 characters. */
function defaultMessage(text: string): string {
  let found: unknown = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    found = typeof body.error === 'object' ? body.error?.message : (body.error ?? body.detail ?? body.message ?? text);
  } catch {
    // not JSON: the text itself
  }
  return (typeof found === 'string' ? found : JSON.stringify(found)).replace(/\s+/g, ' ').trim().slice(0, 300);
}
