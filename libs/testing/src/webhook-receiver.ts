import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/** One HTTP request as it arrived, body untouched so signatures can be verified byte for byte. */
export interface ReceivedRequest {
  /** 0-based arrival order (counted when the body is complete). */
  index: number;
  method: string;
  /** Request target as sent, query string included (e.g. `/hooks?x=1`). */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** `Date.now()` when the body was complete. */
  receivedAt: number;
  /** The sender's TCP port: tells apart connections (and so sender processes) sharing one receiver. */
  remotePort?: number;
}

export interface PlannedResponse {
  status: number;
  /** Objects are sent as JSON. */
  body?: string | Buffer | Record<string, unknown> | unknown[];
  headers?: Record<string, string>;
  /** Answer only after this long (to exercise client timeouts and slow targets). */
  delayMs?: number;
  /** Never answer; the socket stays open until the client gives up or `close()`. */
  hang?: boolean;
}

export type Responder =
  | number
  | PlannedResponse
  | ((
      request: ReceivedRequest,
      index: number,
    ) => number | PlannedResponse | Promise<number | PlannedResponse>);

export interface WebhookReceiverOptions {
  /** Path of `url`; every path is accepted and recorded regardless. Default `/hooks`. */
  path?: string;
  /** Initial response plan; default 200 with an empty body. */
  respondWith?: Responder;
}

/**
 * A real HTTP server on loopback that records webhook deliveries, so delivery
 * code is tested over actual sockets (timeouts, retries, keep-alive) rather
 * than against a mocked HTTP client.
 */
export class WebhookReceiver {
  private readonly received: ReceivedRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Set<() => void>();
  private responder: Responder;
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly basePath: string,
    responder: Responder,
  ) {
    this.responder = responder;
  }

  static async start(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
    const server = createServer();
    // Port 0: the OS hands out a free port atomically, no race with parallel workers.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('webhook receiver: no listen address');
    const receiver = new WebhookReceiver(
      server,
      address.port,
      options.path ?? '/hooks',
      options.respondWith ?? 200,
    );
    server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.once('close', () => receiver.sockets.delete(socket));
    });
    server.on('request', (req, res) => receiver.handle(req, res));
    return receiver;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `${this.origin}${this.basePath}`;
  }

  /** A copy, so callers can hold on to it while more requests arrive. */
  get requests(): ReceivedRequest[] {
    return [...this.received];
  }

  /** Changes how subsequent requests are answered; requests already in flight keep their plan. */
  respondWith(responder: Responder): this {
    this.responder = responder;
    return this;
  }

  /** Forgets recorded requests; indices start from 0 again. */
  clear(): void {
    this.received.length = 0;
  }

  /** Resolves with all requests once at least `count` arrived; rejects at the deadline instead of hanging the test. */
  waitForRequests(count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.received.length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(this.requests);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `webhook receiver: expected ${count} request(s) within ${timeoutMs} ms, got ${this.received.length}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Stops listening and destroys every socket, hanging ones included, so no test leaks handles. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await done;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => undefined);
    req.on('end', () => {
      const record: ReceivedRequest = {
        index: this.received.length,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
        remotePort: req.socket.remotePort,
      };
      this.received.push(record);
      for (const waiter of [...this.waiters]) waiter();
      void this.plan(record).then(
        (plan) => this.answer(res, plan),
        (error: unknown) => this.answer(res, { status: 500, body: `responder failed: ${String(error)}` }),
      );
    });
  }

  private async plan(record: ReceivedRequest): Promise<PlannedResponse> {
    const responder = this.responder;
    const planned = typeof responder === 'function' ? await responder(record, record.index) : responder;
    return typeof planned === 'number' ? { status: planned } : planned;
  }

  private answer(res: ServerResponse, plan: PlannedResponse): void {
    if (plan.hang || this.closed) return;
    const send = () => {
      if (res.destroyed) return;
      const { body } = plan;
      const headers = { ...plan.headers };
      let payload: string | Buffer = '';
      if (Buffer.isBuffer(body) || typeof body === 'string') payload = body;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
      res.writeHead(plan.status, headers);
      res.end(payload);
    };
    if (!plan.delayMs) return send();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      send();
    }, plan.delayMs);
    this.timers.add(timer);
  }
}
