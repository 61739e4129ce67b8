import { waitFor, type Tenant } from '@genasset/testing';
import { FakeExecutor } from './support/executor';
import { handled, startJobHarness, type JobHarness } from './support/job-harness';

jest.setTimeout(120_000);

/** job-service's /metrics: how long jobs took from creation to their end, by type and final status. */
describe('job-service metrics', () => {
  let harness: JobHarness;
  let executor: FakeExecutor;
  let tenant: Tenant;

  beforeAll(async () => {
    harness = await startJobHarness();
    executor = await new FakeExecutor().start();
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await executor?.stop();
    await harness?.close();
  });

  const count = (text: string, labels: string) =>
    Number(new RegExp(`^job_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  const scrape = async () => (await fetch(`${harness.url}/metrics`)).text();

  it('observes job durations when a job ends, by job type and final status', async () => {
    const before = await scrape();
    const ok = await harness.createJob(tenant, { jobType: 'upscale' });
    const bad = await harness.createJob(tenant, { jobType: 'upscale' });
    for (const sent of [
      executor.succeeded(ok.jobId, { assetIds: [] }),
      executor.failed(bad.jobId, 'engine crashed'),
    ]) {
      const { id } = await sent;
      await waitFor(() => handled(harness, id), { timeoutMs: 20_000, what: `report ${id} handled` });
    }
    const after = await scrape();
    expect(
      count(after, 'job_type="upscale",status="success"') -
        count(before, 'job_type="upscale",status="success"'),
    ).toBe(1);
    expect(
      count(after, 'job_type="upscale",status="failure"') -
        count(before, 'job_type="upscale",status="failure"'),
    ).toBe(1);
    expect(after).toMatch(
      /^job_duration_seconds_bucket\{le="3600",job_type="upscale",status="success"\} \d+$/m,
    );
  });
});
