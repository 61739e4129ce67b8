import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { FakeCog, waitFor, writeBackendsFile, type Tenant } from '@genasset/testing';
import { forwarder } from './support/forwarder';
import type { InferenceHarness } from './support/inference-harness';
import { startCrashDrill, type CrashDrill } from './support/worker-process';

// Separate OS processes: SWC start-up of the worker twice on 2 cores.
jest.setTimeout(420_000);

/**
 * A Cog container in asynchronous mode, its worker SIGKILLed mid-prediction: the prediction ends
 * while no worker runs, Cog forgets it and retries its final webhook until the restarted worker's
 * callback route takes it; the report kept with the work item completes the job — no second PUT,
 * no second prediction.
 */
describe('inference-worker process: killed while a Cog prediction runs asynchronously', () => {
  let cog: FakeCog;
  let proxy: Server;
  let drill: CrashDrill;
  let harness: InferenceHarness;
  let tenant: Tenant;
  let target = 'http://127.0.0.1:9';
  let backends: string;

  const worker = async (env: Record<string, string> = {}) => {
    const { child, url } = await drill.worker({
      INFERENCE_BACKENDS_FILE: backends,
      INFERENCE_CALLBACK_SECRET: 'a-callback-signing-secret',
      ...env,
    });
    target = url;
    return child;
  };

  beforeAll(async () => {
    // 30 steps × 150 ms: the prediction runs 4.5 s and ends while no worker is up.
    cog = await FakeCog.start({ steps: 30, stepMs: 150 });
    // Cog's own schedule (12 retries from 100 ms, about 5 minutes): outlasts the worker's restart.
    cog.terminalRetries = 12;
    proxy = await forwarder(() => target);
    backends = writeBackendsFile({
      box: {
        type: 'cog',
        url: cog.url,
        routes: ['upscale'],
        callbackUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        callbackFallback: '10m',
        pollInterval: '500ms',
        // The fake answers from the test process, on two cores shared with other files: 2 s was a flake.
        timeouts: { request: '15s', job: '10m' },
      },
    });
    ({ harness, tenant } = drill = await startCrashDrill('cogcrash'));
  });
  afterAll(async () => {
    await drill?.close();
    await cog?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it('the final report, delivered to the restarted worker, completes the job: one PUT, one prediction', async () => {
    let alive = await worker();
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#556677' } }).png().toBuffer();
    const body = await harness.generate(tenant, 'upscale', { image: `data:image/png;base64,${image.toString('base64')}` });
    const jobId = body.job.jobId as string;
    const put = await waitFor(() => cog.requests.find((r) => r.method === 'PUT'), { timeoutMs: 60_000, what: 'the PUT' });
    const submission = put.body.id as string;
    await waitFor(
      async () => (await harness.db.query<{ h: string | null }>('SELECT backend_handle AS h FROM inference.work_items WHERE job_id = $1', [jobId]))[0]?.h === submission,
      { what: 'the handle to be stored' },
    );
    expect(await alive.kill('SIGKILL')).toBeNull();
    target = 'http://127.0.0.1:9';
    // The prediction ends with nobody to tell: Cog forgets it, its final webhook fails and is retried.
    await cog.predictions.whenFinal(submission);
    expect(cog.predictions.all.get(submission)?.status).toBe('succeeded');

    alive = await worker({ INFERENCE_LEASE: '60s' });
    const done = await harness.finalJob(tenant, jobId, 300_000);
    expect({ status: done.status, error: done.metadata.output?.errorMessage }).toEqual({ status: 'success', error: undefined });
    expect(cog.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(cog.predictions.created).toHaveLength(1);
    expect((await harness.assetBytes(tenant, (done.metadata.assetIds as string[])[0])).equals(cog.predictions.images[0])).toBe(true);
  });
});
