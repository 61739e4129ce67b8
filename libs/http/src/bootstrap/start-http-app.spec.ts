import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { createHttpApp } from './create-http-app';
import { startHttpApp } from './start-http-app';

const FIXTURE = resolve(__dirname, '../testing/shutdown-app.fixture.ts');

interface Child {
  proc: ChildProcess;
  events: Record<string, unknown>[];
  next(event: string): Promise<Record<string, unknown>>;
  exit: Promise<number | null>;
}

function startChild(env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, ['-r', '@swc-node/register', FIXTURE], {
    cwd: resolve(__dirname, '../../../..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const events: Record<string, unknown>[] = [];
  const waiters: { event: string; resolve: (e: Record<string, unknown>) => void }[] = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const e = JSON.parse(line) as Record<string, unknown>;
    if (typeof e.event !== 'string') return; // a log line, not a fixture event
    events.push(e);
    for (const w of waiters.filter((w) => w.event === e.event)) w.resolve(e);
  });
  const exit = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const next = (event: string) =>
    new Promise<Record<string, unknown>>((r) => {
      const seen = events.find((e) => e.event === event);
      if (seen) r(seen);
      else waiters.push({ event, resolve: r });
    });
  return { proc, events, next, exit };
}

describe('startHttpApp', () => {
  it('listens on the given port and shuts down on request', async () => {
    const order: string[] = [];
    @Injectable()
    class Hook implements OnModuleDestroy {
      onModuleDestroy(): void {
        order.push('destroy');
      }
    }
    @Module({ providers: [Hook] })
    class M {}
    const app = await createHttpApp(M, { serviceName: 's', logLevel: 'silent', openapi: { title: 't' } });
    const running = await startHttpApp(app, {
      port: 0,
      host: '127.0.0.1',
      shutdownGraceMs: 1000,
      handleSignals: false,
    });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${running.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    await Promise.all([running.shutdown(), running.shutdown()]);
    expect(order).toEqual(['destroy']);
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });

  it('on SIGTERM finishes the in-flight request, runs destroy hooks after, and exits 0', async () => {
    const child = startChild();
    const { url } = (await child.next('listening')) as { url: string };
    const inflight = fetch(`${url}/v1/slow`).then((r) => r.json());
    await child.next('slow-started');
    child.proc.kill('SIGTERM');
    await expect(inflight).resolves.toEqual({ done: true });
    expect(await child.exit).toBe(0);
    expect(child.events.map((e) => e.event)).toEqual(['listening', 'slow-started', 'destroy-hook']);
  }, 20000);

  it('exits non-zero once the grace period is exceeded', async () => {
    const child = startChild({ HANG_ON_DESTROY: '1' });
    await child.next('listening');
    const sent = Date.now();
    child.proc.kill('SIGTERM');
    expect(await child.exit).toBe(1);
    expect(Date.now() - sent).toBeLessThan(5000);
  }, 20000);
});
