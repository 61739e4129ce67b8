import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { ForbiddenTargetError, guardedConnector, guardedLookup, type LookupAll } from './guarded-connector';

// Real sockets on loopback: the connector must refuse before a byte is sent.
describe('guardedConnector', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => (hits = 0));

  const send = async (agent: Agent, url: string) => {
    try {
      const res = await request(url, { method: 'POST', dispatcher: agent, body: '{}' });
      await res.body.text();
      return res.statusCode;
    } finally {
      await agent.close();
    }
  };

  it('refuses an IP literal that is forbidden', async () => {
    const agent = new Agent({ connect: guardedConnector({ allowPrivate: false }) });
    await expect(send(agent, `http://127.0.0.1:${port}/h`)).rejects.toBeInstanceOf(ForbiddenTargetError);
    expect(hits).toBe(0);
  });

  it('refuses a name that resolves to a forbidden address at connect time (DNS rebinding)', async () => {
    // Registration saw a public address; by connect time the name points at loopback.
    const rebound: LookupAll = (_host, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const agent = new Agent({ connect: guardedConnector({ allowPrivate: false, lookupAll: rebound }) });
    const error = await send(agent, `http://rebind.example.com:${port}/h`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenTargetError);
    expect((error as ForbiddenTargetError).message).toMatch(
      /rebind\.example\.com resolves to 127\.0\.0\.1, a loopback address/,
    );
    expect(hits).toBe(0);
  });

  it('refuses when any of several addresses is forbidden', async () => {
    const mixed: LookupAll = (_host, cb) =>
      cb(null, [
        { address: '8.8.8.8', family: 4 },
        { address: '::ffff:169.254.169.254', family: 6 },
      ]);
    const agent = new Agent({ connect: guardedConnector({ allowPrivate: false, lookupAll: mixed }) });
    await expect(send(agent, `http://mixed.example.com:${port}/h`)).rejects.toMatchObject({
      code: 'WEBHOOK_FORBIDDEN_TARGET',
      kind: 'metadata',
    });
  });

  it('passes DNS failures through as connection errors', async () => {
    const missing: LookupAll = (host, cb) =>
      cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    const agent = new Agent({ connect: guardedConnector({ allowPrivate: false, lookupAll: missing }) });
    await expect(send(agent, `http://missing.example.com:${port}/h`)).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('connects normally with allowPrivate (development and tests)', async () => {
    const agent = new Agent({ connect: guardedConnector({ allowPrivate: true }) });
    expect(await send(agent, `http://127.0.0.1:${port}/h`)).toBe(200);
    expect(hits).toBe(1);
  });
});

describe('guardedLookup', () => {
  const publicHost: LookupAll = (_host, cb) =>
    cb(null, [
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '1.1.1.1', family: 4 },
    ]);
  const run = (options: object) =>
    new Promise<unknown[]>((resolve) =>
      guardedLookup(publicHost)('one.example.com', options, (...args) => resolve(args)),
    );

  it('hands public addresses to net.connect in the form it asked for', async () => {
    expect(await run({ all: true })).toEqual([
      null,
      [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '1.1.1.1', family: 4 },
      ],
    ]);
    expect(await run({})).toEqual([null, '2606:4700:4700::1111', 6]);
    expect(await run({ family: 4 })).toEqual([null, '1.1.1.1', 4]);
  });
});
