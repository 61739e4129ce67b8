import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { freePort, spawnTsProcess, waitFor, WebhookReceiver, type SpawnedProcess, EMBEDDED_PLATFORM_ENV, seedEmbeddedDataDir } from '@genasset/testing';

jest.setTimeout(300_000);

/**
 * Embedded mode after a crash: the job that was running when the process was
 * SIGKILLed stays leased to the dead process (INFERENCE_LEASE, 60 s). The next
 * process on the data directory holds its lock, so it knows no other worker is
 * alive, ends those leases at start, and the job runs again at once.
 */
describe('platform: crash recovery in embedded mode', () => {
  let dataDir: string;
  let server: WebhookReceiver;
  const running: SpawnedProcess[] = [];

  const start = async () => {
    const port = await freePort();
    const proc = spawnTsProcess('apps/platform/src/main.ts', {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...EMBEDDED_PLATFORM_ENV,
      // txt2img goes to the "inference server" below, which never answers the first request: a job
      // that is running, leased to this process, when it is killed.
      INFERENCE_ENGINES: 'txt2img=http',
      INFERENCE_HTTP_URL: server.url,
      INFERENCE_PREVIEW: 'off',
    });
    running.push(proc);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok, () => false), { timeoutMs: 120_000, intervalMs: 100, what: `${base}/healthz` });
    return { proc, base };
  };
  const auth = () => {
    const b = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { apiKey: string; apiSecret: string };
    return { authorization: `Basic ${Buffer.from(`${b.apiKey}:${b.apiSecret}`).toString('base64')}` };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'genasset-crash-'));
    await seedEmbeddedDataDir(dataDir);
    const png = (await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } }).png().toBuffer()).toString('base64');
    server = await WebhookReceiver.start({
      path: '/infer',
      respondWith: (_request, index) =>
        index === 0 ? { status: 200, hang: true } : { status: 200, body: { outputs: [{ data: png, mimeType: 'image/png' }] } },
    });
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.kill('SIGKILL')));
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a job running when the process was SIGKILLed finishes within seconds of the restart, not after its 60 s lease', async () => {
    const first = await start();
    await waitFor(() => statSync(join(dataDir, 'bootstrap.json'), { throwIfNoEntry: false }), { timeoutMs: 10_000, what: 'bootstrap.json' });
    const res = await fetch(`${first.base}/v1/generate/txt2img`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ modelId: 'flux.1-dev', prompt: 'a lighthouse', width: 64, height: 64 }),
    });
    expect(res.status).toBe(200);
    const { job } = (await res.json()) as { job: { jobId: string } };
    await server.waitForRequests(1, 60_000);

    await first.proc.kill('SIGKILL');
    const killedAt = Date.now();
    const second = await start();
    const readyAt = Date.now();
    const final = await waitFor(
      async () => {
        const r = await fetch(`${second.base}/v1/jobs/${job.jobId}`, { headers: auth() });
        const body = (await r.json()) as { job?: { status: string } };
        return body.job && ['success', 'failure', 'canceled'].includes(body.job.status) ? body.job : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 100, what: `job ${job.jobId} to finish after the restart` },
    );
    const doneAt = Date.now();
    console.log(
      `[crash-recovery] job finished ${doneAt - readyAt} ms after the restarted process was up (${doneAt - killedAt} ms after the SIGKILL, ${readyAt - killedAt} ms of it starting)`,
    );
    expect(final.status).toBe('success');
    expect(server.requests).toHaveLength(2);
    expect(doneAt - readyAt).toBeLessThan(10_000);
  });
});
