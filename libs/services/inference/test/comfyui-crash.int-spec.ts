import { randomBytes } from 'node:crypto';
import { migrate } from '@genasset/persistence';
import {
  FakeComfyui,
  freePort,
  primeConsumerGroups,
  s3Env,
  spawnTsProcess,
  testServices,
  waitFor,
  type SpawnedProcess,
  type Tenant,
} from '@genasset/testing';
import { INFERENCE_SCHEMA, INFERENCE_SERVICE } from '../src';
import { comfyBackendsFile } from './support/comfyui-backends';
import { startInferenceHarness, type InferenceHarness } from './support/inference-harness';

// Separate OS processes: SWC start-up of the worker twice on 2 cores.
jest.setTimeout(240_000);

/**
 * The worker as its own process (apps/inference-worker, as deployed), SIGKILLed while ComfyUI runs
 * its prompt: the restarted worker resumes the stored prompt_id and the backend sees exactly one
 * submission. job-, asset- and generation-service run in the test process (the harness).
 */
describe('inference-worker process: killed mid-job on a ComfyUI backend', () => {
  let fake: FakeComfyui;
  let harness: InferenceHarness;
  let tenant: Tenant;
  const workers: SpawnedProcess[] = [];
  const groupPrefix = `crash-${randomBytes(4).toString('hex')}.`;

  const worker = async () => {
    const port = await freePort();
    const child = spawnTsProcess('apps/inference-worker/src/main.ts', {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: harness.database.url,
      KAFKA_BROKERS: testServices().kafkaBrokers.join(','),
      KAFKA_GROUP_PREFIX: groupPrefix,
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      ...s3Env(testServices().s3),
      ASSET_SERVICE_URL: harness.url,
      JOB_SERVICE_URL: harness.url,
      GENERATION_SERVICE_URL: harness.url,
      INTERNAL_API_TOKEN: harness.internalToken,
      INFERENCE_BACKENDS_FILE: comfyBackendsFile(fake.url),
      COMFY_TEST_TOKEN: 'tok_test',
      INFERENCE_PREVIEW: 'off',
      // A killed worker's job is taken over 3 s after its last renewal.
      INFERENCE_LEASE: '3s',
      INFERENCE_POLL_INTERVAL: '200ms',
      INFERENCE_PROGRESS_INTERVAL: '0',
    });
    workers.push(child);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok, {
      timeoutMs: 120_000,
      intervalMs: 250,
      what: 'the inference-worker process /readyz',
    });
    return child;
  };

  beforeAll(async () => {
    // 40 steps × 100 ms: the prompt runs 4 s, long enough to kill the worker in the middle of it.
    fake = await FakeComfyui.start({ stepDelayMs: 100 });
    harness = await startInferenceHarness({ worker: false });
    await migrate(harness.db, INFERENCE_SCHEMA);
    await primeConsumerGroups(testServices().kafkaBrokers, [`${groupPrefix}${INFERENCE_SERVICE}`]);
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await harness?.close();
    await fake?.close();
  });

  it('resumes the stored prompt after a restart: one submission, the job succeeds with its outputs', async () => {
    const first = await worker();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'a crash test', numInferenceSteps: 40 });
    const jobId = body.job.jobId as string;
    const submit = await waitFor(
      () => fake.submits.find((s) => (s.extraData.genasset as { jobId: string }).jobId === jobId),
      { timeoutMs: 60_000, what: 'the prompt to reach ComfyUI' },
    );
    await waitFor(
      async () =>
        (
          await harness.db.query<{ backend_handle: string | null }>(
            'SELECT backend_handle FROM inference.work_items WHERE job_id = $1',
            [jobId],
          )
        )[0]?.backend_handle === submit.promptId,
      { what: 'the handle to be stored' },
    );
    expect(fake.queue.running).toEqual([submit.promptId]);
    expect(await first.kill('SIGKILL')).toBeNull();

    await worker();
    const done = await harness.finalJob(tenant, jobId, 120_000);
    expect(done.status).toBe('success');
    expect(fake.submits.filter((s) => (s.extraData.genasset as { jobId: string }).jobId === jobId)).toHaveLength(1);
    const [row] = await harness.db.query<{ status: string; attempts: number; backend: string; backend_handle: string }>(
      'SELECT status, attempts, backend, backend_handle FROM inference.work_items WHERE job_id = $1',
      [jobId],
    );
    expect(row).toEqual({ status: 'done', attempts: 2, backend: 'gpu1', backend_handle: submit.promptId });
    const asset = await harness.asset(tenant, done.metadata.assetIds[0]);
    expect(asset.metadata).toMatchObject({ backend: 'gpu1', promptId: submit.promptId });
  });
});
