import { FakeComfyui, waitFor, type SpawnedProcess, type Tenant } from '@genasset/testing';
import { comfyBackendsFile } from './support/comfyui-backends';
import type { InferenceHarness } from './support/inference-harness';
import { startCrashDrill, type CrashDrill } from './support/worker-process';

// Separate OS processes: SWC start-up of the worker twice on 2 cores.
jest.setTimeout(240_000);

/**
 * The worker as its own process (apps/inference-worker, as deployed), SIGKILLed while ComfyUI runs
 * its prompt: the restarted worker resumes the stored prompt_id and the backend sees exactly one
 * submission. job-, asset- and generation-service run in the test process (the harness).
 */
describe('inference-worker process: killed mid-job on a ComfyUI backend', () => {
  let fake: FakeComfyui;
  let drill: CrashDrill;
  let harness: InferenceHarness;
  let tenant: Tenant;
  /** The worker process alive now (each test kills it and starts the next). */
  let alive: SpawnedProcess;

  const worker = async (env: Record<string, string> = {}) =>
    (
      await drill.worker({
        // The fake answers from the test process, on two cores shared with other files: a 2 s request
        // timeout is the likely cause of a resumed job that failed in CI (its reason was not shown then).
        INFERENCE_BACKENDS_FILE: comfyBackendsFile(fake.url, { timeouts: { request: '15s', job: '60s' } }),
        COMFY_TEST_TOKEN: 'tok_test',
        ...env,
      })
    ).child;

  beforeAll(async () => {
    // 40 steps × 100 ms: the prompt runs 4 s, long enough to kill the worker in the middle of it.
    fake = await FakeComfyui.start({ stepDelayMs: 100 });
    ({ harness, tenant } = drill = await startCrashDrill('crash'));
  });
  afterAll(async () => {
    await drill?.close();
    await fake?.close();
  });

  it('resumes the stored prompt after a restart: one submission, the job succeeds with its outputs', async () => {
    const first = await worker();
    alive = first;
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

    // Its claims last a minute: when it dies in the last test, no one takes its job over meanwhile.
    alive = await worker({ INFERENCE_LEASE: '60s' });
    const done = await harness.finalJob(tenant, jobId, 120_000);
    expect({ status: done.status, error: done.metadata.output?.errorMessage }).toEqual({ status: 'success', error: undefined });
    expect(fake.submits.filter((s) => (s.extraData.genasset as { jobId: string }).jobId === jobId)).toHaveLength(1);
    const [row] = await harness.db.query<{ status: string; attempts: number; backend: string; backend_handle: string }>(
      'SELECT status, attempts, backend, backend_handle FROM inference.work_items WHERE job_id = $1',
      [jobId],
    );
    expect(row).toEqual({ status: 'done', attempts: 2, backend: 'gpu1', backend_handle: submit.promptId });
    const asset = await harness.asset(tenant, done.metadata.assetIds[0]);
    expect(asset.metadata).toMatchObject({ backend: 'gpu1', promptId: submit.promptId });
  });

  const submitsOf = (jobId: string) => fake.submits.filter((s) => (s.extraData.genasset as { jobId: string }).jobId === jobId);
  const row = async (jobId: string) =>
    (
      await harness.db.query<{ status: string; backend_submission: string | null; backend_handle: string | null }>(
        'SELECT status, backend_submission, backend_handle FROM inference.work_items WHERE job_id = $1',
        [jobId],
      )
    )[0];

  it('killed between submitting and storing the handle (only the intent stored): the prompt is found by its submission, not sent again', async () => {
    // A server choosing its own prompt ids: only the submission in extra_data leads back to the prompt.
    fake.options.ignorePromptId = true;
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'an intent', numInferenceSteps: 40 });
    const jobId = body.job.jobId as string;
    const submit = await waitFor(() => submitsOf(jobId)[0], { timeoutMs: 60_000, what: 'the prompt to reach ComfyUI' });
    await waitFor(async () => (await row(jobId))?.backend_handle === submit.promptId, { what: 'the handle to be stored' });
    expect(await alive.kill('SIGKILL')).toBeNull();
    // As if the worker had died before storing the handle: the row holds the intent only.
    await harness.db.query('UPDATE inference.work_items SET backend_handle = NULL, lease_until = now() WHERE job_id = $1', [jobId]);
    const { backend_submission: submission } = await row(jobId);
    expect(submission).not.toBe(submit.promptId);
    expect((submit.extraData.genasset as { submission: string }).submission).toBe(submission);

    alive = await worker({ INFERENCE_LEASE: '60s' });
    const done = await harness.finalJob(tenant, jobId, 120_000);
    expect({ status: done.status, error: done.metadata.output?.errorMessage }).toEqual({ status: 'success', error: undefined });
    expect(submitsOf(jobId)).toHaveLength(1);
    expect(await row(jobId)).toMatchObject({ status: 'done', backend_submission: submission, backend_handle: submit.promptId });
    fake.options.ignorePromptId = false;
  });

  it('canceled while its worker is dead: the cancel still reaches the backend (the running prompt is interrupted)', async () => {
    fake.fail('never-ends');
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'a cancel', numInferenceSteps: 4 });
    const jobId = body.job.jobId as string;
    const submit = await waitFor(() => submitsOf(jobId)[0], { timeoutMs: 60_000, what: 'the prompt to reach ComfyUI' });
    await waitFor(async () => (await row(jobId))?.backend_handle === submit.promptId, { what: 'the handle to be stored' });
    // Dead, its claim still live for a minute: no worker will run the job again, nobody holds it.
    expect(await alive.kill('SIGKILL')).toBeNull();
    const cancel = await harness.request('POST', `/v1/jobs/${jobId}/action`, {
      auth: tenant.auth.projectMember,
      body: { action: 'cancel' },
    });
    expect(cancel.status).toBe(200);
    // A worker process (not this job's) records the cancel and stops the task it finds on the row.
    alive = await worker();
    await waitFor(() => fake.interrupts.includes(submit.promptId), { timeoutMs: 60_000, what: 'POST /interrupt for the prompt' });
    await waitFor(() => fake.history(submit.promptId)?.status.status_str === 'error', { what: 'the prompt to stop' });
    expect((await harness.finalJob(tenant, jobId)).status).toBe('canceled');
    expect((await row(jobId)).status).toBe('canceled');
    expect(submitsOf(jobId)).toHaveLength(1);
    fake.fail(undefined);
  });
});
