import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeCog, FakeReplicate, waitFor, type Tenant } from '@genasset/testing';
import { replicateBackendsFile } from './support/replicate-backends';
import { forwarder } from './support/forwarder';
import { startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// Callbacks from Replicate: a prediction's end reaches the job at once (the poll is 30 s apart
// here), and forged, misdirected and replayed callbacks are refused without touching any job.
describe('inference-worker: backend callbacks', () => {
  let replicate: FakeReplicate;
  let cog: FakeCog;
  let proxy: Server;
  let harness: InferenceHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    replicate = await FakeReplicate.start({ token: 'r8_test', steps: 4, stepMs: 150 });
    cog = await FakeCog.start();
    proxy = await forwarder(() => harness?.url);
    const callback = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    harness = await startInferenceHarness({
      env: {
        INFERENCE_BACKENDS_FILE: replicateBackendsFile(
          { replicate: replicate.url, cog: cog.url, callback },
          { pollInterval: '30s', webhookSecretEnv: 'R8_WEBHOOK_SECRET' },
        ),
        REPLICATE_TEST_TOKEN: 'r8_test',
        R8_WEBHOOK_SECRET: replicate.webhookSecret,
        INFERENCE_CALLBACK_SECRET: 'a-callback-signing-secret',
        INFERENCE_PREVIEW: 'off',
      },
    });
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
    await replicate?.close();
    await cog?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  const job = async (jobId: string) => (await harness.request('GET', `/v1/jobs/${jobId}`, { auth: tenant.auth.projectMember })).body.job;
  const predictionOf = (prompt: string) => waitFor(() => replicate.predictions.created.find((p) => p.input.prompt === prompt), { what: 'the prediction' });
  const completedCallback = (id: string) =>
    waitFor(() => replicate.webhooks.find((w) => (JSON.parse(w.body) as { id: string; status: string }).id === id && w.body.includes('"succeeded"') && w.status), {
      what: 'the completion callback',
    });

  it('completes by callback, long before the next poll; the webhook URL is signed for the job', async () => {
    const started = Date.now();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'by callback' });
    const prediction = await predictionOf('by callback');
    const done = await harness.finalJob(tenant, body.job.jobId, 20_000);
    expect(done.status).toBe('success');
    expect(Date.now() - started).toBeLessThan(20_000);
    const url = new URL(prediction.webhook!);
    expect(url.searchParams.get('job')).toBe(body.job.jobId);
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect((await completedCallback(prediction.id)).status).toBe(204);
  });

  it('refuses forged, misdirected and replayed callbacks (4xx, a reason) and the job carries on untouched', async () => {
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'forgery target' });
    const jobId = body.job.jobId as string;
    const prediction = await predictionOf('forgery target');
    const forged = JSON.stringify({ ...prediction, status: 'succeeded', output: ['http://evil.example/x.png'] });
    const send = async (url: string, headers: Record<string, string>) => {
      const res = await fetch(url.replace(/^http:\/\/127\.0\.0\.1:\d+/, harness.url), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: forged });
      const text = await res.text();
      return { status: res.status, message: (JSON.parse(text) as { error?: string }).error };
    };
    // Signed with another secret.
    expect(await send(prediction.webhook!, replicate.sign(forged, `whsec_${Buffer.from('not the secret at all').toString('base64')}`))).toEqual({
      status: 401,
      message: 'the webhook signature is refused: webhook-signature does not match',
    });
    // A timestamp out of tolerance, correctly signed.
    expect((await send(prediction.webhook!, replicate.sign(forged, undefined, 'msg_old', Math.floor(Date.now() / 1000) - 3600))).status).toBe(401);
    // The URL of this job, pointed at another job.
    const other = new URL(prediction.webhook!);
    other.searchParams.set('job', 'job_someone_else');
    expect(await send(other.toString(), replicate.sign(forged))).toEqual({
      status: 401,
      message: 'the callback URL signature does not match its backend, submission and job',
    });
    expect((await job(jobId)).status).not.toMatch(/success|failure/);

    const done = await harness.finalJob(tenant, jobId, 20_000);
    expect(done.status).toBe('success');
    expect((await harness.assetBytes(tenant, done.metadata.assetIds[0])).equals(replicate.predictions.images.at(-1)!)).toBe(true);
    // The completion callback again, byte for byte, after the job is final.
    const original = await completedCallback(prediction.id);
    const replay = await replicate.post(original.url, original.body, Object.fromEntries(Object.entries(original.headers).filter(([k]) => k.startsWith('webhook-'))));
    expect(replay.status).toBe(409);
    expect((await job(jobId)).status).toBe('success');
  });
});
