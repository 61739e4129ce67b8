import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  EMBEDDED_PLATFORM_ENV,
  freePort,
  FAKE_BACKEND_ROUTES,
  generateOnBackend,
  spawnTsProcess,
  startFakeBackends,
  waitFor,
  WebhookReceiver,
  type DeploymentClient,
  type FakeBackends,
  seedEmbeddedDataDir,
  type SpawnedProcess,
} from '@genasset/testing';
import { SIGNATURE_HEADER, verifyEvent } from '@genasset/webhooks';

jest.setTimeout(180_000);

/**
 * Issue #19 item 9, embedded mode: the platform as `npm start` runs it (one OS process, embedded
 * database, broker and object store) with the four backends of INFERENCE_BACKENDS_FILE on their
 * fakes. For each engine: generate → job → an asset holding exactly the bytes the backend served →
 * `generation.completed` at a local receiver, its signature verified as docs/webhooks.md says.
 * (The distributed variant is in distributed/distributed.int-spec.ts.)
 */
describe('platform in embedded mode: every backend engine end to end', () => {
  let fakes: FakeBackends;
  let hooks: WebhookReceiver;
  let platform: SpawnedProcess;
  let dataDir: string;
  let base: string;
  let auth: string;
  let secret: string;
  let picture: string;
  const rejected: string[] = [];

  beforeAll(async () => {
    [fakes, hooks] = await Promise.all([startFakeBackends(), WebhookReceiver.start()]);
    dataDir = mkdtempSync(join(tmpdir(), 'genasset-backends-'));
    await seedEmbeddedDataDir(dataDir);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    platform = spawnTsProcess('apps/platform/src/main.ts', {
      ...EMBEDDED_PLATFORM_ENV,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...fakes.env,
      INFERENCE_PREVIEW: 'off',
      INFERENCE_POLL_INTERVAL: '200ms',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    await waitFor(() => fetch(`${base}/readyz`).then((r) => r.ok), { timeoutMs: 120_000, intervalMs: 250, what: 'platform /readyz (backends reachable)' }).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${platform.errors()}`);
      },
    );
    const file = join(dataDir, 'bootstrap.json');
    await waitFor(() => statSync(file, { throwIfNoEntry: false }), { timeoutMs: 10_000, what: 'bootstrap.json' });
    const b = JSON.parse(readFileSync(file, 'utf8')) as { adminToken: string; teamId: string; projectId: string; apiKey: string; apiSecret: string };
    auth = `Basic ${Buffer.from(`${b.apiKey}:${b.apiSecret}`).toString('base64')}`;
    const plan = await fetch(`${base}/admin/v1/teams/${b.teamId}/credit-plan`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${b.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ totalPeriodCreativeUnits: 1000, periodStart: new Date(Date.now() - 86_400_000).toISOString(), periodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString() }),
    });
    expect(plan.status).toBe(200);
    const endpoint = await client.request('POST', `/v1/projects/${b.projectId}/webhook-endpoints`, { url: hooks.url, enabledEvents: ['generation.completed'] });
    expect(endpoint.status).toBe(200);
    secret = endpoint.body.webhookEndpoint.secret as string;
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3060a0' } }).png().toBuffer();
    picture = `data:image/png;base64,${png.toString('base64')}`;
  }, 180_000);

  afterAll(async () => {
    await platform?.kill('SIGTERM');
    await Promise.all([fakes?.close(), hooks?.close()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const client: DeploymentClient = {
    async request(method, path, body) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async completed(jobId) {
      return waitFor(
        () => {
          for (const request of hooks.requests) {
            try {
              const event = verifyEvent(request.rawBody, request.headers[SIGNATURE_HEADER] as string, secret);
              if ((event.data as { jobId?: string }).jobId === jobId && event.type === 'generation.completed') return event;
            } catch (error) {
              if (!rejected.includes((error as Error).message)) rejected.push((error as Error).message);
            }
          }
          return undefined;
        },
        { timeoutMs: 30_000, what: `the signed generation.completed of ${jobId}` },
      );
    },
  };

  it.each(FAKE_BACKEND_ROUTES)('%s (%s): the asset holds the backend\'s bytes, generation.completed is signed', async (engine) => {
    const c = fakes.cases.find((x) => x.engine === engine)!;
    const run = await generateOnBackend(c, picture, client);
    expect(run.job.metadata.output).toMatchObject({ engine: c.engine, backend: c.backend });
    expect(c.served().some((served) => served.equals(run.bytes))).toBe(true);
    expect(run.asset.metadata).toMatchObject({ engine: c.engine, ...c.metadata });
    expect(run.event).toMatchObject({ type: 'generation.completed', data: { jobId: run.job.jobId } });
    expect(rejected).toEqual([]);
  });
});
