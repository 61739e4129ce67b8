import { sign, USER_AGENT } from '@genasset/webhooks';
import { Agent, type Dispatcher } from 'undici';
import { guardedConnector } from '../url-policy';
import { answered, transportFailure, type AttemptOutcome } from './attempt-outcome';

export interface SenderOptions {
  timeoutMs: number;
  responseBodyLimit: number;
  allowPrivate: boolean;
  /** Idle keep-alive sockets are closed after this long. */
  keepAliveTimeoutMs?: number;
}

/** One signed POST: where, with which secret, which bytes. */
export interface SignedPost {
  url: URL;
  secret: string;
  body: Buffer;
}

export type SendOutcome = AttemptOutcome & { abandoned?: true };

/**
 * Sends deliveries over one pooled keep-alive undici Agent: exactly the spec's
 * headers (Content-Type, User-Agent, X-SERVICE-SIGNATURE), signed at send time
 * over the very bytes sent, no redirects followed, the whole attempt bounded
 * by the timeout, the response body read up to a small cap and dropped.
 * Every address is checked again when a connection is opened (guardedConnector).
 *
 * Requests go through undici's `dispatch` with a handler of our own
 * (AttemptHandler) rather than `request`: the status is all an attempt needs,
 * and `request` builds a body stream, an AbortSignal and their listeners for
 * every POST. Measured on loopback with 64 connections: 40 → 19 µs of client
 * CPU per POST.
 */
export class WebhookSender {
  private readonly agent: Agent;
  /** Attempts in flight, so shutdown can abandon them. */
  private readonly inFlight = new Set<AttemptHandler>();

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({
      connect: guardedConnector({ allowPrivate: options.allowPrivate, timeout: options.timeoutMs }),
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // One request per socket at a time: a slow answer never holds up another delivery.
      pipelining: 1,
      // No redirect interceptor is composed: a 3xx is the attempt's answer, never followed (undici 7 removed maxRedirections).
    });
  }

  /** Never throws: every failure becomes an outcome; `abandoned` when `abandonAll()` cut it short. */
  send(post: SignedPost): Promise<SendOutcome> {
    return new Promise((resolve) => {
      const started = Date.now();
      const handler = new AttemptHandler(started, this.options, (outcome) => {
        this.inFlight.delete(handler);
        resolve(outcome);
      });
      this.inFlight.add(handler);
      try {
        this.agent.dispatch(
          {
            origin: post.url.origin,
            path: `${post.url.pathname}${post.url.search}`,
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              'User-Agent': USER_AGENT,
              // Signed now, over the bytes below: a retry carries a fresh timestamp.
              'X-SERVICE-SIGNATURE': sign(post.body, post.secret, started),
            },
            body: post.body,
          },
          handler,
        );
      } catch (error) {
        // Arguments undici refused synchronously: the request was never sent.
        handler.onResponseError(undefined, error as Error);
      }
    });
  }

  /** Shutdown: cancels every attempt in flight. */
  abandonAll(): void {
    for (const handler of [...this.inFlight]) handler.cancel('abandoned');
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }
}

/**
 * One attempt's view of undici's request lifecycle: the final status, the
 * response body counted up to the cap and dropped, and the attempt's outcome
 * settled exactly once — when the body ends or passes the cap, on an error,
 * when the whole-attempt timer fires or when shutdown abandons it. A request
 * cancelled while still waiting for a socket is aborted the moment undici
 * hands it one, so it is never written.
 */
class AttemptHandler implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private status = 0;
  private bodyBytes = 0;
  private cancelled?: 'timeout' | 'abandoned';
  private settled = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly started: number,
    private readonly options: Pick<SenderOptions, 'timeoutMs' | 'responseBodyLimit'>,
    private readonly done: (outcome: SendOutcome) => void,
  ) {
    this.timer = setTimeout(() => this.cancel('timeout'), options.timeoutMs);
  }

  cancel(why: 'timeout' | 'abandoned'): void {
    if (this.settled || this.cancelled) return;
    this.cancelled = why;
    if (this.controller) this.controller.abort(new Error(`attempt ${why}`));
    // Not on a socket yet: settle now; onRequestStart aborts it when it gets one.
    else this.onResponseError(undefined, new Error(`attempt ${why}`));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.cancelled) controller.abort(new Error(`attempt ${this.cancelled}`));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bodyBytes += chunk.length;
    // Past the cap: the status stands; the rest is cut off with its connection.
    if (this.bodyBytes > Math.max(1, this.options.responseBodyLimit)) {
      this.settle(this.answer());
      controller.abort(new Error('response body over the cap'));
    }
  }

  onResponseEnd(): void {
    this.settle(this.answer());
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    const durationMs = Date.now() - this.started;
    if (this.cancelled === 'abandoned') {
      this.settle({
        ...transportFailure(error, new Date(this.started), durationMs, this.options.timeoutMs, false),
        abandoned: true,
      });
    } else if (this.status >= 200) {
      // The answer came; its body failed or was cut short: the status is the attempt's answer.
      this.settle(this.answer());
    } else {
      this.settle(
        transportFailure(
          error,
          new Date(this.started),
          durationMs,
          this.options.timeoutMs,
          this.cancelled === 'timeout',
        ),
      );
    }
  }

  private answer(): AttemptOutcome {
    return answered(this.status, new Date(this.started), Date.now() - this.started);
  }

  private settle(outcome: SendOutcome): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.done(outcome);
  }
}
