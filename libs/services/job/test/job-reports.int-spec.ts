import { TOPICS, type JobView } from '@genasset/contracts';
import { TopicReader, waitFor, type Tenant } from '@genasset/testing';
import { FakeExecutor } from './support/executor';
import { handled, startJobHarness, type JobHarness } from './support/job-harness';

jest.setTimeout(120_000);

// Executors report on job.reports.v1 over the real broker; job-service drives the state machine
// and publishes lifecycle facts on job.lifecycle.v1.
describe('job-service reports consumer', () => {
  let harness: JobHarness;
  let executor: FakeExecutor;
  let lifecycle: TopicReader;
  let tenant: Tenant;

  beforeAll(async () => {
    lifecycle = await new TopicReader(TOPICS.jobLifecycle).start();
    harness = await startJobHarness();
    executor = await new FakeExecutor().start();
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await executor?.stop();
    await harness?.close();
    await lifecycle?.stop();
  });

  /** Sends a report and waits until job-service has handled it (applied or deliberately ignored). */
  async function report(send: Promise<{ id: string }>): Promise<void> {
    const { id } = await send;
    await waitFor(() => handled(harness, id), { timeoutMs: 20_000, what: `report ${id} handled` });
  }
  const statuses = (job: JobView) => job.statusHistory.map((h) => h.status);

  it('drives a job through its states to success: status, progress, history, output, facts', async () => {
    const job = await harness.createJob(tenant, { jobType: 'upscale' });
    await report(executor.progress(job.jobId, 'warming-up', 0));
    await report(executor.progress(job.jobId, 'in-progress', 0.3));
    const midway = await harness.getJob(tenant, job.jobId);
    expect(midway).toMatchObject({ status: 'in-progress', progress: 0.3 });

    await report(executor.progress(job.jobId, 'in-progress', 0.6));
    await report(executor.progress(job.jobId, 'finalizing', 0.9));
    await report(
      executor.succeeded(job.jobId, { assetIds: ['asset_a', 'asset_b'], engine: 'image', width: 2048 }),
    );

    const done = await harness.getJob(tenant, job.jobId);
    expect(done).toMatchObject({
      status: 'success',
      progress: 1,
      metadata: {
        input: job.metadata.input,
        output: { assetIds: ['asset_a', 'asset_b'], engine: 'image', width: 2048 },
        assetIds: ['asset_a', 'asset_b'],
      },
    });
    // One entry per status reached (progress within a status adds none), in order, dated in order.
    expect(statuses(done)).toEqual(['queued', 'warming-up', 'in-progress', 'finalizing', 'success']);
    const dates = done.statusHistory.map((h) => Date.parse(h.date));
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
    expect(done.updatedAt).toBe(done.statusHistory[4].date);

    const [succeeded] = await lifecycle.waitFor(job.jobId, 'job.succeeded');
    expect(lifecycle.types(job.jobId)).toEqual(['job.created', 'job.started', 'job.succeeded']);
    expect(lifecycle.of(job.jobId, 'job.started')[0].envelope.data).toMatchObject({
      status: 'warming-up',
      progress: 0,
    });
    // The fact carries the documented output fields only; the job keeps everything.
    expect(succeeded.envelope.data).toEqual({
      jobId: job.jobId,
      jobType: 'upscale',
      kind: 'generation',
      status: 'success',
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      progress: 1,
      output: { assetIds: ['asset_a', 'asset_b'] },
    });
    expect(succeeded.key).toBe(job.jobId);
  });

  it('fails a job with the executor’s reason: shown on the job, carried by job.failed', async () => {
    const job = await harness.createJob(tenant, {
      jobType: 'model-training',
      kind: 'model-training',
      modelId: 'model_t1',
      input: { name: 'dogs' },
    });
    await report(executor.progress(job.jobId, 'in-progress', 0.5));
    await report(executor.failed(job.jobId, 'No engine is configured for model-training'));

    const failed = await harness.getJob(tenant, job.jobId);
    expect(failed).toMatchObject({
      status: 'failure',
      progress: 0.5,
      metadata: { output: { errorMessage: 'No engine is configured for model-training' } },
    });
    expect(statuses(failed)).toEqual(['queued', 'in-progress', 'failure']);

    const [fact] = await lifecycle.waitFor(job.jobId, 'job.failed');
    expect(fact.envelope.data).toMatchObject({
      kind: 'model-training',
      status: 'failure',
      modelId: 'model_t1',
      failureReason: 'No engine is configured for model-training',
    });
    // Training receivers need model.training.started: the started fact carries the model too.
    expect(lifecycle.of(job.jobId, 'job.started')[0].envelope.data).toMatchObject({
      status: 'in-progress',
      modelId: 'model_t1',
      kind: 'model-training',
    });
  });

  it('changes nothing for a redelivered report or a duplicate one', async () => {
    const job = await harness.createJob(tenant);
    const first = await executor.progress(job.jobId, 'in-progress', 0.4);
    await report(Promise.resolve(first));
    const before = await harness.getJob(tenant, job.jobId);

    await executor.send(first); // the same event again: the inbox drops it
    await report(executor.progress(job.jobId, 'in-progress', 0.4)); // a new event saying the same
    await report(executor.progress(job.jobId, 'in-progress', 0.2)); // late and lower: progress never decreases
    await report(executor.progress(job.jobId, 'warming-up', 0.9)); // backwards: refused
    expect(await harness.getJob(tenant, job.jobId)).toEqual(before);
    expect(statuses(before)).toEqual(['queued', 'in-progress']);

    await report(executor.succeeded(job.jobId, { assetIds: ['asset_z'] }));
    const done = await harness.getJob(tenant, job.jobId);
    await report(executor.succeeded(job.jobId, { assetIds: ['asset_other'] })); // a second result: ignored
    await report(executor.failed(job.jobId, 'too late')); // contradicts a final status: ignored
    expect(await harness.getJob(tenant, job.jobId)).toEqual(done);
    await lifecycle.waitFor(job.jobId, 'job.succeeded');
    expect(lifecycle.types(job.jobId)).toEqual(['job.created', 'job.started', 'job.succeeded']);
  });

  it('ignores reports arriving after a cancel, without blocking or dead-lettering them', async () => {
    const job = await harness.createJob(tenant);
    await report(executor.progress(job.jobId, 'in-progress', 0.1));
    const cancel = await harness.request('POST', `/v1/jobs/${job.jobId}/action`, {
      auth: tenant.auth.projectMember,
      body: { action: 'cancel' },
    });
    expect(cancel.status).toBe(200);

    // handled() = the inbox mark committed with the handler's transaction: the reports were taken
    // and skipped. A failing handler would have rolled back (no mark) and ended dead-lettered.
    await report(executor.progress(job.jobId, 'finalizing', 0.9));
    await report(executor.succeeded(job.jobId, { assetIds: ['asset_late'] }));
    const after = await harness.getJob(tenant, job.jobId);
    expect(after).toMatchObject({
      status: 'canceled',
      progress: 0.1,
      metadata: { output: {}, assetIds: [] },
    });
    expect(statuses(after)).toEqual(['queued', 'in-progress', 'canceled']);

    // The partition moves on: the next job's report is applied.
    const next = await harness.createJob(tenant);
    await report(executor.succeeded(next.jobId, {}));
    expect((await harness.getJob(tenant, next.jobId)).status).toBe('success');
    await lifecycle.waitFor(job.jobId, 'job.canceled');
    expect(lifecycle.types(job.jobId)).toEqual(['job.created', 'job.started', 'job.canceled']);
  });

  it('goes straight from queued to success for a fast executor (no job.started), and ignores unknown jobs', async () => {
    const job = await harness.createJob(tenant, { jobType: 'translate', input: { text: 'bonjour' } });
    await report(executor.succeeded(job.jobId, { text: 'hello' }));
    const done = await harness.getJob(tenant, job.jobId);
    expect(statuses(done)).toEqual(['queued', 'success']);
    expect(done.metadata).toMatchObject({ output: { text: 'hello' }, assetIds: [] });
    await lifecycle.waitFor(job.jobId, 'job.succeeded');
    expect(lifecycle.types(job.jobId)).toEqual(['job.created', 'job.succeeded']);

    await report(executor.progress('job_01JD0000000000000000NOSUCH', 'in-progress', 0.5));
  });
});
