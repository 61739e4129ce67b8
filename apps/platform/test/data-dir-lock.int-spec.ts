import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnTsProcess, waitFor, type SpawnedProcess, EMBEDDED_PLATFORM_ENV } from '@genasset/testing';

jest.setTimeout(300_000);

/**
 * One process per data directory (embedded mode): a second `npm start` on the
 * same DATA_DIR used to start too, and the first one's acknowledged writes were
 * lost once the second wrote. Now the second fails at once, naming the directory
 * and the holder's pid; a SIGKILLed holder's lock is taken over by the next start,
 * with every write the holder acknowledged still there.
 */
describe('platform: one process per data directory', () => {
  let dataDir: string;
  const running: SpawnedProcess[] = [];

  const start = async () => {
    const port = await freePort();
    const proc = spawnTsProcess('apps/platform/src/main.ts', {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...EMBEDDED_PLATFORM_ENV,
    });
    running.push(proc);
    return { proc, base: `http://127.0.0.1:${port}` };
  };
  const healthy = (base: string) =>
    waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok, () => false), { timeoutMs: 120_000, intervalMs: 200, what: `${base}/healthz` });
  const auth = () => {
    const b = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { apiKey: string; apiSecret: string };
    return { authorization: `Basic ${Buffer.from(`${b.apiKey}:${b.apiSecret}`).toString('base64')}` };
  };
  const collectionNames = async (base: string) => {
    const res = await fetch(`${base}/v1/collections?pageSize=100`, { headers: auth() });
    expect(res.status).toBe(200);
    return ((await res.json()) as { collections: { name: string }[] }).collections.map((c) => c.name).sort();
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'genasset-lock-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.kill('SIGKILL')));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second process at once, naming the directory and the holder pid; a SIGKILLed holder is taken over with its data intact', async () => {
    const first = await start();
    await healthy(first.base);
    await waitFor(() => statSync(join(dataDir, 'bootstrap.json'), { throwIfNoEntry: false }), { timeoutMs: 10_000, what: 'bootstrap.json' });
    const names = ['one', 'two', 'three', 'four', 'five'];
    for (const name of names) {
      const res = await fetch(`${first.base}/v1/collections`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      expect(res.status).toBe(200);
    }

    // The second start on the same directory (another port) exits non-zero before it opens the
    // database or listens, saying which directory and which process holds it.
    const second = await start();
    const startedAt = Date.now();
    const exited = new Promise<number | null>((resolve) => second.proc.child.on('exit', resolve));
    await waitFor(() => second.proc.child.exitCode !== null, { timeoutMs: 60_000, intervalMs: 50, what: 'the second process to exit' });
    const code = await exited;
    const tookMs = Date.now() - startedAt;
    expect(code).toBe(1);
    expect(second.proc.errors()).toContain(`DATA_DIR ${dataDir} is in use by process ${first.proc.child.pid} on host`);
    console.log(`[data-dir-lock] second start refused after ${tookMs} ms (process start included)`);
    expect(tookMs).toBeLessThan(30_000);

    // The first one never noticed: it still serves and writes.
    const sixth = await fetch(`${first.base}/v1/collections`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'six' }),
    });
    expect(sixth.status).toBe(200);
    expect(await collectionNames(first.base)).toEqual([...names, 'six'].sort());

    // SIGKILL leaves the lock behind; the next start takes it over (the holder's pid is gone) and
    // finds every acknowledged write.
    await first.proc.kill('SIGKILL');
    expect(existsSync(join(dataDir, 'genasset.lock'))).toBe(true);
    const third = await start();
    await healthy(third.base);
    expect(await collectionNames(third.base)).toEqual([...names, 'six'].sort());
    expect(JSON.parse(readFileSync(join(dataDir, 'genasset.lock'), 'utf8'))).toMatchObject({ pid: third.proc.child.pid });

    // A clean shutdown releases it.
    expect(await third.proc.kill('SIGTERM')).toBe(0);
    expect(existsSync(join(dataDir, 'genasset.lock'))).toBe(false);
  });
});
