import { FakeOpenai, type Tenant } from '@genasset/testing';
import { openaiBackendsFile } from './support/openai-backends';
import { startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

const JOBS = 24;

// A job waiting on a remote server holds none of the worker's INFERENCE_CONCURRENCY slots: the
// server's own concurrency is the limit, so 24 jobs are at the backend at once with 2 slots, not
// in waves of 2 (docs/engines.md, "The work queue").
describe('inference-worker: jobs waiting on a backend leave the worker slots free', () => {
  let fake: FakeOpenai;
  let harness: InferenceHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    // The fake answers only once all the jobs are at it at the same time.
    fake = await FakeOpenai.start({ apiKey: 'sk-test', models: ['dall-e-2', 'gpt-4o-mini', 'text-embedding-3-small'], answerWhenInFlight: JOBS });
    harness = await startInferenceHarness({
      env: {
        INFERENCE_BACKENDS_FILE: openaiBackendsFile(fake.url, { concurrency: 64, timeouts: { request: '120s', job: '150s' } }),
        OPENAI_TEST_KEY: 'sk-test',
        INFERENCE_PREVIEW: 'off',
        INFERENCE_CONCURRENCY: '2',
      },
    });
    tenant = await harness.tenant();
    const plan = await harness.request('PUT', `/admin/v1/teams/${tenant.teamId}/credit-plan`, {
      auth: `Bearer ${harness.adminToken}`,
      body: {
        totalPeriodCreativeUnits: 1000,
        periodStart: new Date(Date.now() - 86_400_000).toISOString(),
        periodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    expect(plan.status).toBe(200);
  });
  afterAll(async () => {
    await harness?.close();
    await fake?.close();
  });

  it(`${JOBS} txt2img jobs on a backend are all at it at once with INFERENCE_CONCURRENCY 2, and all succeed`, async () => {
    const jobIds: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: `lighthouse ${i}`, width: 64, height: 64 });
      jobIds.push(body.job.jobId as string);
    }
    const done = await Promise.all(jobIds.map((jobId) => harness.finalJob(tenant, jobId, 120_000)));
    expect(done.map((job) => job.status)).toEqual(jobIds.map(() => 'success'));
    expect(fake.peakInFlight).toBe(JOBS);
  });
});
