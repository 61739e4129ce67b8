import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '@genasset/webhooks';
import { WebhookSender } from './webhook-sender';

const SECRET = 'whsec_dGVzdC1zZWNyZXQtb2YtdGhpcnR5LXR3by1ieXRlcyE';
const BODY = Buffer.from('{"id":"whevent_1","type":"generation.completed","data":{"jobId":"job_1"}}');

/** A loopback receiver whose answer each test decides; counts the requests that reached it. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
  let reached = 0;
  let firstArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
  const server: Server = createServer((req, res) => {
    reached++;
    firstArrived();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks) });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?x=1`);
  return {
    url,
    requests,
    /** Requests whose head reached the server, bodies complete or not. */
    reached: () => reached,
    /** The first request's head reached the server; rejects after `ms`. */
    arrived: (ms: number) => within(ms, arrived, 'a request to reach the receiver'),
    /**
     * Stops listening and resolves once every connection it accepted has ended: after the sender
     * closed its own, no request can reach this receiver any more.
     */
    drained: (ms: number) =>
      within(ms, new Promise<void>((resolve) => server.close(() => resolve())), 'the receiver to close'),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `promise`, or a failure naming `what` once `ms` have passed: no test waits without a deadline. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

describe('WebhookSender', () => {
  let sender: WebhookSender;
  const closers: (() => Promise<void>)[] = [];
  const open = async (answer: Parameters<typeof receiver>[0]) => {
    const r = await receiver(answer);
    closers.push(r.close);
    return r;
  };

  beforeEach(() => {
    sender = new WebhookSender({ timeoutMs: 500, responseBodyLimit: 1024, allowPrivate: true });
  });
  afterEach(async () => {
    await sender.close();
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it('POSTs the bytes with the spec headers and a signature over them, and records a 2xx as 200', async () => {
    const hooks = await open((_req, res) => res.writeHead(204).end());
    const outcome = await sender.send({ url: hooks.url, secret: SECRET, body: BODY });
    expect(outcome).toMatchObject({ responseStatusCode: 200, ok: true, error: null });
    expect(hooks.requests).toHaveLength(1);
    const [request] = hooks.requests;
    expect(request.body.equals(BODY)).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Service-Webhooks/2.0');
    const signature = request.headers['x-service-signature'] as string;
    expect(signature.split('.')[0]).toBe(String(outcome.sentAt.getTime()));
    expect(() => verify(request.body, signature, SECRET)).not.toThrow();
  });

  it('records another status as answered, with its code', async () => {
    const hooks = await open((_req, res) => res.writeHead(302, { location: 'http://example.com/' }).end());
    const outcome = await sender.send({ url: hooks.url, secret: SECRET, body: BODY });
    expect(outcome).toMatchObject({ responseStatusCode: 302, ok: false, error: 'HTTP 302' });
    expect(hooks.requests).toHaveLength(1);
  });

  it('settles on the status once the body passes the cap, without waiting for the rest', async () => {
    // Headers and 64 KiB, then the receiver never ends the response.
    const hooks = await open((_req, res) => {
      res.writeHead(200);
      res.write('x'.repeat(64 * 1024));
    });
    const started = Date.now();
    const outcome = await sender.send({ url: hooks.url, secret: SECRET, body: BODY });
    expect(outcome).toMatchObject({ responseStatusCode: 200, ok: true });
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('records a receiver that never answers as a 500 timeout after the timeout', async () => {
    const hooks = await open(() => undefined);
    const outcome = await sender.send({ url: hooks.url, secret: SECRET, body: BODY });
    expect(outcome).toMatchObject({ responseStatusCode: 500, ok: false });
    expect(outcome.error).toMatch(/^timeout: no complete answer within 500 ms/);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(490);
  });

  it('records a refused connection as 500 with the reason', async () => {
    const hooks = await open((_req, res) => res.end());
    await hooks.close();
    const outcome = await sender.send({ url: hooks.url, secret: SECRET, body: BODY });
    expect(outcome).toMatchObject({ responseStatusCode: 500, ok: false });
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });

  it('gives attempts in flight back as abandoned at shutdown, at once', async () => {
    const hooks = await open(() => undefined);
    const sent = sender.send({ url: hooks.url, secret: SECRET, body: BODY });
    await hooks.arrived(5_000);
    sender.abandonAll();
    const outcome = await sent;
    expect(outcome.abandoned).toBe(true);
    expect(outcome.durationMs).toBeLessThan(400);
  });

  it('never writes a request abandoned before it had a connection', async () => {
    const hooks = await open((_req, res) => res.end());
    const sent = sender.send({ url: hooks.url, secret: SECRET, body: BODY });
    sender.abandonAll(); // still connecting
    expect((await sent).abandoned).toBe(true);
    // What rules a late request out: the sender's connections are closed, and the receiver has seen
    // every connection it accepted end. A request written before that would have reached it.
    await sender.close();
    await hooks.drained(5_000);
    expect(hooks.reached()).toBe(0);
  });
});
