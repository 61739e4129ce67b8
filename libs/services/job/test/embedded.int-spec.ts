import {
  createEnvelope,
  JobProgressReported,
  JobSucceededReported,
  type EventEnvelope,
} from '@genasset/contracts';
import { Outbox, type SqlClient } from '@genasset/messaging';
import { waitFor } from '@genasset/testing';
import { handled, startJobHarness, type JobHarness } from './support/job-harness';

jest.setTimeout(120_000);

// Embedded mode (apps/platform): no broker, the in-process transport. An executor in the same
// process reports through its outbox; job-service applies it with the same handler and inbox.
describe('job-service on the in-process transport', () => {
  let harness: JobHarness;
  let executorOutbox: Outbox;
  let sql: SqlClient;

  beforeAll(async () => {
    harness = await startJobHarness({ transport: 'in-process' });
    // Stands in for an executor's outbox; the job schema's relay publishes it in-process.
    executorOutbox = new Outbox({ schema: 'jobs', producer: 'fake-executor' });
    sql = {
      $executeRawUnsafe: async (query, ...values) => (await harness.db.query(query, values)).length,
      $queryRawUnsafe: async (query, ...values) => (await harness.db.query(query, values)) as never,
    };
  });
  afterAll(() => harness?.close());

  async function report(envelope: EventEnvelope): Promise<void> {
    await executorOutbox.write(sql, [envelope]);
    await waitFor(() => handled(harness, envelope.id), {
      timeoutMs: 20_000,
      what: `report ${envelope.id} handled`,
    });
  }

  it('creates, advances and completes a job', async () => {
    const tenant = await harness.tenant();
    const job = await harness.createJob(tenant);
    await report(
      createEnvelope(
        JobProgressReported,
        { jobId: job.jobId, status: 'in-progress' as const, progress: 0.5 },
        { producer: 'fake-executor' },
      ),
    );
    await report(
      createEnvelope(
        JobSucceededReported,
        { jobId: job.jobId, output: { assetIds: ['asset_e'] } },
        { producer: 'fake-executor' },
      ),
    );
    const done = await harness.getJob(tenant, job.jobId);
    expect(done).toMatchObject({ status: 'success', progress: 1, metadata: { assetIds: ['asset_e'] } });
    expect(done.statusHistory.map((h) => h.status)).toEqual(['queued', 'in-progress', 'success']);
  });
});
