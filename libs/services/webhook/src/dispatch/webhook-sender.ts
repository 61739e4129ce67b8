import { sign, USER_AGENT } from '@genasset/webhooks';
import { Agent } from 'undici';
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

/**
 * Sends deliveries over one pooled keep-alive undici Agent: exactly the spec's
 * headers (Content-Type, User-Agent, X-SERVICE-SIGNATURE), signed at send time
 * over the very bytes sent, no redirects followed, the whole attempt bounded
 * by the timeout, the response body read up to a small cap and dropped.
 * Every address is checked again when a connection is opened (guardedConnector).
 */
export class WebhookSender {
  private readonly agent: Agent;
  /** Attempts in flight, so shutdown can abandon them. */
  private readonly controllers = new Set<AbortController>();
  private abandoning = false;

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
  async send(post: SignedPost): Promise<AttemptOutcome & { abandoned?: true }> {
    const { timeoutMs } = this.options;
    const started = Date.now();
    const sentAt = new Date(started);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    this.controllers.add(controller);
    try {
      const response = await this.agent.request({
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
        signal: controller.signal,
      });
      // Drain a little so the socket can be reused; anything longer is cut off with its connection.
      await response.body.dump({ limit: Math.max(1, this.options.responseBodyLimit) }).catch(() => undefined);
      return answered(response.statusCode, sentAt, Date.now() - started);
    } catch (error) {
      if (this.abandoning && !timedOut)
        return {
          ...transportFailure(error, sentAt, Date.now() - started, timeoutMs, false),
          abandoned: true,
        };
      return transportFailure(error, sentAt, Date.now() - started, timeoutMs, timedOut);
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  /** Shutdown: cancels every attempt in flight. */
  abandonAll(): void {
    this.abandoning = true;
    for (const controller of this.controllers) controller.abort();
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }
}
