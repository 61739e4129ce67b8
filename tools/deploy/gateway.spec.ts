/**
 * The Compose gateway (deploy/compose/nginx.conf) run by a real nginx: `nginx -t` accepts it, then
 * every sample path of DESIGN §1 is sent through it to stub upstreams that report what reached
 * them. Debian ships nginx 1.22, so the Docker-only `resolve` upstreams become loopback ports (the
 * rewrite the distributed end-to-end test uses: apps/platform/test/distributed/support/gateway.ts);
 * every location stays as shipped.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMPOSE_NGINX_CONF,
  findNginx,
  startGateway,
  type Gateway,
} from '../../apps/platform/test/distributed/support/gateway';
import { DOCS_ROUTES, PRIVATE_PATHS, PUBLIC_ROUTES } from './support/routes';
import { workspaceApps } from './images';

const shipped = readFileSync(COMPOSE_NGINX_CONF, 'utf8');
const nginx = findNginx();
// `npm test` installs nginx (scripts/lib/install.mjs); elsewhere say why this is skipped, but never in CI.
if (!nginx && !process.env.CI)
  console.warn(
    'tools/deploy/gateway.spec.ts skipped: nginx is not installed (Debian: apt-get install nginx)',
  );
const describeWithNginx = nginx || process.env.CI ? describe : describe.skip;

/** `upstream <name> { server <host>:<port> resolve; }` → host:port, as shipped. */
function upstreamHosts(text: string): Map<string, string> {
  return new Map(
    [...text.matchAll(/upstream (\w+) \{[^}]*?server ([^\s;]+) resolve;/g)].map((m) => [m[1], m[2]]),
  );
}

interface Answer {
  status: number;
  /** Compose service whose stub answered, if the request reached one. */
  service?: string;
  /** Path the upstream received. */
  path?: string;
  body: string;
}

/** A raw request (no client-side URL normalisation, so `..` and `%2e` reach nginx as written). */
function send(base: string, path: string, body?: Buffer): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path, method: body ? 'POST' : 'GET', headers: { connection: 'close' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          const stub = res.headers['x-stub-service'];
          resolve({
            status: res.statusCode ?? 0,
            service: typeof stub === 'string' ? stub : undefined,
            path: stub ? (JSON.parse(text) as { path: string }).path : undefined,
            body: text,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What the public side gets wrong; empty when it routes exactly as DESIGN §1 says. */
async function routingProblems(gateway: Gateway): Promise<string[]> {
  const problems: string[] = [];
  for (const [path, owner] of PUBLIC_ROUTES) {
    const a = await send(gateway.url, path);
    if (a.service !== owner || a.path !== path)
      problems.push(`${path} → ${a.service ?? a.status}${a.path ?? ''} (expected ${owner}${path})`);
  }
  for (const [path, owner, upstreamPath] of DOCS_ROUTES) {
    const a = await send(gateway.url, path);
    if (a.service !== owner || a.path !== upstreamPath)
      problems.push(`${path} → ${a.service ?? a.status}${a.path ?? ''} (expected ${owner}${upstreamPath})`);
  }
  for (const path of PRIVATE_PATHS) {
    const a = await send(gateway.url, path);
    if (a.service) problems.push(`${path} must not be public, but reaches ${a.service}${a.path}`);
  }
  return problems;
}

describeWithNginx('compose gateway (deploy/compose/nginx.conf under nginx)', () => {
  const services = workspaceApps().filter((a) => a !== 'platform' && a !== 'cli');
  const hosts = upstreamHosts(shipped);
  const stubs: Server[] = [];
  const ports: Record<string, number[]> = {};
  const dirs: string[] = [];
  const gateways: Gateway[] = [];
  let gateway: Gateway;

  async function start(source = shipped): Promise<Gateway> {
    const dir = mkdtempSync(join(tmpdir(), 'genasset-gateway-'));
    dirs.push(dir);
    const started = await startGateway(dir, ports, source);
    gateways.push(started);
    return started;
  }

  beforeAll(async () => {
    if (!nginx)
      throw new Error('CI must run the gateway check: nginx is not installed (apt-get install nginx)');
    for (const [upstream, host] of hosts) {
      const service = host.replace(/:8080$/, '');
      const stub = createServer((req, res) => {
        let bytes = 0;
        req.on('data', (c: Buffer) => (bytes += c.length));
        req.on('end', () => {
          res.setHeader('x-stub-service', service);
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ path: req.url, bytes }));
        });
      });
      await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
      const { port } = stub.address() as AddressInfo;
      stubs.push(stub);
      ports[upstream] = [port];
    }
    gateway = await start();
  }, 30_000);

  afterAll(async () => {
    for (const g of gateways) await g.stop();
    for (const stub of stubs) await new Promise((r) => stub.close(r));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('upstreams are the compose services on their HTTP port, resolved by Docker DNS', () => {
    expect(hosts.size).toBeGreaterThan(0);
    for (const [name, host] of hosts)
      expect([name, host]).toEqual([
        name,
        expect.stringMatching(new RegExp(`^(${services.join('|')}):8080$`)),
      ]);
    // Every upstream block names its server with `resolve` (what upstreamHosts reads).
    expect(hosts.size).toBe([...shipped.matchAll(/upstream \w+ \{/g)].length);
  });

  it('routes each public path to its owner, docs per service, and nothing private', async () => {
    expect(await routingProblems(gateway)).toEqual([]);
  });

  it('answers private paths with a 404 in the API error shape itself', async () => {
    for (const path of PRIVATE_PATHS.filter((p) => !p.includes('..') && !p.startsWith('//'))) {
      const a = await send(gateway.url, path);
      expect([path, a.status, a.service]).toEqual([path, 404, undefined]);
      expect(JSON.parse(a.body)).toMatchObject({ apiError: 'not_found', error: 'Not found' });
    }
  });

  it('accepts 64 MiB bodies on generate, upload, model and asset-search routes only', async () => {
    const twoMiB = Buffer.alloc(2 * 1024 * 1024, 1);
    for (const path of [
      '/v1/generate/img2img',
      '/v1/assets',
      '/v1/uploads',
      '/v1/models/model_01J/training-images',
      '/v1/search/assets',
    ]) {
      const a = await send(gateway.url, path, twoMiB);
      expect([path, a.status, (JSON.parse(a.body) as { bytes: number }).bytes]).toEqual([
        path,
        200,
        twoMiB.length,
      ]);
    }
    for (const path of ['/v1/collections', '/v1/jobs', '/v1/me']) {
      const a = await send(gateway.url, path, twoMiB);
      expect([path, a.status, a.service]).toEqual([path, 413, undefined]);
      expect(JSON.parse(a.body)).toMatchObject({ apiError: 'payload_too_large' });
    }
  });

  it('the operator side serves /admin on job-service and nothing else', async () => {
    const admin = await send(gateway.adminUrl, '/admin/v1/teams');
    expect([admin.service, admin.path]).toEqual(['job-service', '/admin/v1/teams']);
    for (const path of ['/v1/assets', '/internal/v1/jobs', '/v1/jobs'])
      expect([path, (await send(gateway.adminUrl, path)).status]).toEqual([path, 404]);
  });

  it('the check catches a gateway that leaks private routes or misroutes public ones', async () => {
    const broken = shipped
      .replace(
        /(location \^~ \/admin\/ \{\n)\s*return 404[^\n]*\n/,
        '$1      proxy_pass http://job_service;\n',
      )
      .replace('location ~ ^/v1/teams/[^/]+/(usage|credit-alerts)(/|$) {', 'location ~ ^/v1/teams/ {');
    expect(broken).not.toBe(shipped);
    const problems = await routingProblems(await start(broken));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/admin/v1/teams must not be public, but reaches job-service'),
        expect.stringContaining('/v1/teams/team_01J/webhook-endpoints → job-service'),
      ]),
    );
  }, 30_000);
});
