import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { freePort } from './free-port';
import { WebhookReceiver } from './webhook-receiver';

// Raw node:http rather than fetch: fetch keeps sockets pooled after the test,
// and these tests must see exactly what the receiver does to a connection.
function post(url: string, body: string, timeoutMs = 5_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sig': 'abc' },
      agent: false,
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.end(body);
  });
}

describe('WebhookReceiver', () => {
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.close());

  it('records method, path, headers and the exact body bytes', async () => {
    const body = '{"b":1,  "a":"é"}';
    const res = await post(`${receiver.url}?attempt=1`, body);

    expect(res.status).toBe(200);
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
    const [recorded] = receiver.requests;
    expect(recorded).toMatchObject({ index: 0, method: 'POST', path: '/hooks?attempt=1' });
    expect(recorded!.headers['x-sig']).toBe('abc');
    expect(recorded!.rawBody.equals(Buffer.from(body))).toBe(true);
    expect(recorded!.receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it('answers with a fixed status or a per-request plan', async () => {
    receiver.respondWith(503);
    expect((await post(receiver.url, '1')).status).toBe(503);

    receiver.respondWith((req, index) =>
      index === 1 ? { status: 500, body: { retry: true } } : { status: 204 },
    );
    const second = await post(receiver.url, '2');
    expect(second).toEqual({ status: 500, body: '{"retry":true}' });
    expect((await post(receiver.url, '3')).status).toBe(204);
    expect(receiver.requests.map((r) => r.rawBody.toString())).toEqual(['1', '2', '3']);
  });

  it('delays a response', async () => {
    receiver.respondWith({ status: 202, delayMs: 150 });
    const started = Date.now();
    expect((await post(receiver.url, 'x')).status).toBe(202);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('hangs until the client times out, and close() still ends the open socket', async () => {
    receiver.respondWith({ status: 200, hang: true });
    await expect(post(receiver.url, 'x', 200)).rejects.toThrow('client timeout');

    const pending = post(receiver.url, 'y', 10_000);
    await receiver.waitForRequests(2, 2_000);
    await receiver.close();
    await expect(pending).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('waitForRequests resolves once enough arrived and rejects at the deadline', async () => {
    const waiting = receiver.waitForRequests(2, 2_000);
    await post(receiver.url, 'a');
    await post(receiver.url, 'b');
    expect((await waiting).length).toBe(2);

    await expect(receiver.waitForRequests(3, 100)).rejects.toThrow(
      'expected 3 request(s) within 100 ms, got 2',
    );
  });
});

describe('freePort', () => {
  it('returns a port that can be bound', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });

  it('is below the ephemeral range, which listen(0) and outgoing connections draw from', async () => {
    const range = existsSync('/proc/sys/net/ipv4/ip_local_port_range')
      ? readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
      : [49_152, 65_535];
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(range[0]);
    // Picked at random: twenty calls do not line up on one port.
    expect(new Set(ports).size).toBeGreaterThan(15);
  });
});
