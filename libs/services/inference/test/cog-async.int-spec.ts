import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { FakeCog, type Tenant } from '@genasset/testing';
import { forwarder } from './support/forwarder';
import { startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// A Cog container in asynchronous mode: `PUT /predictions/{id}` with `Prefer: respond-async` and a
// signed webhook; the prediction's reports come back by callback and are kept with the work item
// (Cog forgets a finished prediction), the final one completing the job — no held request, no
// second PUT while callbacks arrive.
describe('inference-worker: Cog predictions by callback', () => {
  let cog: FakeCog;
  let proxy: Server;
  let harness: InferenceHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    cog = await FakeCog.start({ steps: 4, stepMs: 200 });
    proxy = await forwarder(() => harness?.url);
    const path = join(mkdtempSync(join(tmpdir(), 'cog-async-')), 'backends.json');
    writeFileSync(
      path,
      JSON.stringify({
        backends: {
          box: {
            type: 'cog',
            url: cog.url,
            routes: ['upscale'],
            callbackUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
            // Far apart: the job can only end this quickly by callback.
            callbackFallback: '60s',
            pollInterval: '20s',
            timeouts: { request: '2s', job: '90s' },
          },
        },
      }),
    );
    harness = await startInferenceHarness({
      env: {
        INFERENCE_BACKENDS_FILE: path,
        INFERENCE_CALLBACK_SECRET: 'a-callback-signing-secret',
        INFERENCE_PREVIEW: 'off',
        INFERENCE_PROGRESS_INTERVAL: '0',
      },
    });
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
    await cog?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  const picture = async () =>
    `data:image/png;base64,${(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345678' } }).png().toBuffer()).toString('base64')}`;
  const report = async (jobId: string) =>
    (await harness.db.query<{ report: Record<string, unknown> | null }>('SELECT backend_report AS report FROM inference.work_items WHERE job_id = $1', [jobId]))[0]
      ?.report;

  it('completes by the completed webhook: one PUT, respond-async, a webhook signed for the job; the final report is kept', async () => {
    const started = Date.now();
    const body = await harness.generate(tenant, 'upscale', { image: await picture() });
    const jobId = body.job.jobId as string;
    const done = await harness.finalJob(tenant, jobId, 30_000);
    expect(done.status).toBe('success');
    expect(Date.now() - started).toBeLessThan(15_000);
    const puts = cog.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0].headers.prefer).toBe('respond-async');
    const submission = puts[0].body.id as string;
    const webhook = new URL(puts[0].body.webhook as string);
    expect(webhook.pathname).toBe(`/v1/backend-callbacks/box/${submission}`);
    expect(webhook.searchParams.get('job')).toBe(jobId);
    expect(puts[0].body.webhook_events_filter).toEqual(['start', 'logs', 'completed']);
    const completed = cog.webhooks.find((w) => w.url === webhook.toString() && w.body.includes('"succeeded"'))!;
    expect(completed.status).toBe(204);
    expect(await report(jobId)).toMatchObject({ id: submission, status: 'succeeded' });
    expect((await harness.assetBytes(tenant, (done.metadata.assetIds as string[])[0])).equals(cog.predictions.images.at(-1)!)).toBe(true);
  });

  it('refuses a callback for another job, and a replay after the job is final, without touching the kept report', async () => {
    const body = await harness.generate(tenant, 'upscale', { image: await picture() });
    const jobId = body.job.jobId as string;
    expect((await harness.finalJob(tenant, jobId, 30_000)).status).toBe('success');
    const completed = cog.webhooks.find((w) => new URL(w.url).searchParams.get('job') === jobId && w.body.includes('"succeeded"'))!;
    const kept = await report(jobId);
    // Replayed after the end: 409, nothing stored.
    const replay = await cog.post(completed.url, completed.body.replace('"succeeded"', '"failed"'));
    expect(replay.status).toBe(409);
    // The same report sent for another job (the URL's signature names this one): 401.
    const other = new URL(completed.url);
    other.searchParams.set('job', 'job_01ANOTHERJOB0000000000000');
    expect((await cog.post(other.toString(), completed.body)).status).toBe(401);
    expect(await report(jobId)).toEqual(kept);
  });
});
