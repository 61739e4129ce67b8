import { randomBytes } from 'node:crypto';
import { JobOutputsProduced } from '@genasset/contracts';
import { S3ObjectStore } from '@genasset/storage';
import { testServices, type Tenant } from '@genasset/testing';
import { FactPublisher } from './support/report-publisher';
import { paint, rgba, startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// What survives crashes and redeliveries: a run whose worker died is taken over once its lease
// passes (and given up after INFERENCE_MAX_ATTEMPTS); outputs become assets exactly once; outputs
// that can never become assets fail the job with a reason.
describe('inference-worker: recovery and the outputs claim check', () => {
  let harness: InferenceHarness;
  let tenant: Tenant;
  let facts: FactPublisher;
  let store: S3ObjectStore;

  beforeAll(async () => {
    harness = await startInferenceHarness({ env: { INFERENCE_MAX_ATTEMPTS: '3' } });
    tenant = await harness.tenant();
    facts = await new FactPublisher().start();
    store = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
  });
  afterAll(async () => {
    await facts?.stop();
    await store?.close();
    await harness?.close();
  });

  /** A work item as a worker that crashed mid-run leaves it: running, lease expired. */
  async function orphanedRun(jobId: string, input: Record<string, unknown>, attempts: number): Promise<void> {
    await harness.db.query(
      `INSERT INTO inference.work_items (job_id, job_type, mode, team_id, project_id, author_id, input, status, attempts, claim_token, lease_until)
       VALUES ($1, 'pixelate', 'pixelate', $2, $3, 'key_test', $4::jsonb, 'running', $5, 'dead-worker', now() - interval '1 second')`,
      [jobId, tenant.teamId, tenant.projectId, JSON.stringify(input), attempts],
    );
  }

  /**
   * Runs `fn` while work the worker queues is not due (a trigger sets its
   * time an hour ahead): for tests that feed asset-service an outputs fact for
   * a job the worker would otherwise run (and fail) at the same time, racing
   * the reason the test checks. Nothing else is held up: the job.work
   * consumer commits as usual.
   */
  async function workerHeldOff<T>(fn: () => Promise<T>): Promise<T> {
    await harness.db
      .query(`CREATE OR REPLACE FUNCTION inference.test_hold_work() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.available_at := now() + interval '1 hour'; RETURN NEW; END $$`);
    await harness.db.query(`CREATE TRIGGER test_hold_work BEFORE INSERT ON inference.work_items
      FOR EACH ROW EXECUTE FUNCTION inference.test_hold_work()`);
    try {
      return await fn();
    } finally {
      await harness.db.query('DROP TRIGGER test_hold_work ON inference.work_items');
    }
  }

  it('takes over a run whose worker died, once its lease has passed', async () => {
    const image = await harness.upload(tenant, await paint(32, 32, (x, y) => [x * 8, y * 8, 0]));
    // A job the worker never heard of (another kind), so only the orphaned row can run it.
    const job = await harness.createJob(tenant, {
      kind: 'model-training',
      jobType: 'pixelate',
      input: { image },
    });
    await orphanedRun(job.jobId, { image, pixelGridSize: 16, removeNoise: false }, 1);
    const done = await harness.finalJob(tenant, job.jobId);
    expect(done.status).toBe('success');
    const [row] = await harness.db.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM inference.work_items WHERE job_id = $1',
      [job.jobId],
    );
    expect(row).toEqual({ status: 'done', attempts: 2 });
    const out = await rgba(await harness.assetBytes(tenant, done.metadata.assetIds[0]));
    expect(out.data.readUInt32BE(0)).toBe(out.data.readUInt32BE((15 * 32 + 15) * 4));
  });

  it('gives up on a job whose runs keep dying, with a reason', async () => {
    const job = await harness.createJob(tenant, { kind: 'model-training', jobType: 'pixelate', input: {} });
    await orphanedRun(job.jobId, { image: 'asset_gone', pixelGridSize: 16 }, 3);
    const done = await harness.finalJob(tenant, job.jobId);
    expect(done).toMatchObject({
      status: 'failure',
      metadata: {
        output: { errorMessage: 'pixelate could not be completed: the worker running it stopped 3 times' },
      },
    });
  });

  it('fails a job whose input asset is gone, naming the field', async () => {
    const job = await harness.createJob(tenant, { kind: 'model-training', jobType: 'pixelate', input: {} });
    await orphanedRun(job.jobId, { image: 'asset_0123456789ABCDEFGHJKMNPQRS', pixelGridSize: 16 }, 0);
    const done = await harness.finalJob(tenant, job.jobId);
    expect(done.metadata.output).toEqual({
      errorMessage:
        'image: asset asset_0123456789ABCDEFGHJKMNPQRS does not exist in the project (was it deleted?)',
    });
  });

  describe('job.outputs.produced → assets (asset-service)', () => {
    const putOutput = async (key: string, png: Buffer) =>
      store.put(key, png, { contentType: 'image/png', contentLength: png.length });

    it('creates the assets once however often the fact arrives, and reports the same ids', async () => {
      const parent = await harness.upload(tenant, await paint(8, 8, () => [9, 9, 9]));
      // Held off: the built-in trainer would otherwise run this model-training job (input {}) and fail it first.
      const { job, data, first } = await workerHeldOff(async () => {
        const job = await harness.createJob(tenant, {
          kind: 'model-training',
          jobType: 'texture',
          input: {},
        });
        const key = `jobs/${job.jobId}/1/0.png`;
        await putOutput(key, await paint(20, 10, (x) => [x * 10, 0, 0]));
        const data = {
          jobId: job.jobId,
          jobType: 'texture' as const,
          tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: 'key_test' },
          outputs: [
            {
              key,
              mimeType: 'image/png',
              assetType: 'texture-height',
              parentAssetId: parent,
              metadata: { engine: 'image', mode: 'texture' },
            },
          ],
          extra: { albedoAssetId: parent },
        };
        await facts.publish(JobOutputsProduced, data);
        return { job, data, first: await harness.finalJob(tenant, job.jobId) };
      });
      expect(first.status).toBe('success');
      await facts.publish(JobOutputsProduced, data); // a second fact (another event id) for the same outputs
      await new Promise((r) => setTimeout(r, 1500));
      const assets = await harness.db.query<{ id: string }>(
        'SELECT id FROM assets.assets WHERE job_id = $1',
        [job.jobId],
      );
      expect(assets.map((a) => a.id)).toEqual(first.metadata.assetIds);
      const asset = await harness.asset(tenant, first.metadata.assetIds[0]);
      expect(asset).toMatchObject({
        source: 'texture:height',
        properties: { width: 20, height: 10 },
        metadata: { parentId: parent, rootParentId: parent },
      });
    });

    it('fails the job instead when an output can never become an asset', async () => {
      const cases = [
        {
          key: (jobId: string) => `jobs/${jobId}/1/0.png`,
          content: Buffer.from('not an image'),
          reason: 'output 0 of the job is not a valid image',
        },
        {
          key: () => `elsewhere/${randomBytes(4).toString('hex')}.png`,
          content: undefined,
          reason: "output 0 of the job is not stored under the job's prefix",
        },
        {
          key: (jobId: string) => `jobs/${jobId}/1/7.png`,
          content: undefined,
          reason: 'output 0 of the job is missing from storage',
        },
      ];
      for (const c of cases) {
        const done = await workerHeldOff(async () => {
          const job = await harness.createJob(tenant, {
            kind: 'model-training',
            jobType: 'upscale',
            input: {},
          });
          const key = c.key(job.jobId);
          if (c.content)
            await store.put(key, c.content, { contentType: 'image/png', contentLength: c.content.length });
          await facts.publish(JobOutputsProduced, {
            jobId: job.jobId,
            jobType: 'upscale',
            tenant: { teamId: tenant.teamId, projectId: tenant.projectId },
            outputs: [{ key, mimeType: 'image/png', assetType: 'upscale', metadata: {} }],
          });
          return harness.finalJob(tenant, job.jobId);
        });
        expect(done.metadata.output).toEqual({ errorMessage: c.reason });
      }
    });

    it('refuses all of a job’s outputs when one of them is unusable: no partial set of assets', async () => {
      const { job, done } = await workerHeldOff(async () => {
        const job = await harness.createJob(tenant, {
          kind: 'model-training',
          jobType: 'texture',
          input: {},
        });
        const good = `jobs/${job.jobId}/1/0.png`;
        const bad = `jobs/${job.jobId}/1/1.png`;
        await putOutput(good, await paint(8, 8, () => [1, 1, 1]));
        await store.put(bad, Buffer.from('garbage'), { contentType: 'image/png', contentLength: 7 });
        await facts.publish(JobOutputsProduced, {
          jobId: job.jobId,
          jobType: 'texture',
          tenant: { teamId: tenant.teamId, projectId: tenant.projectId },
          outputs: [good, bad].map((key) => ({
            key,
            mimeType: 'image/png',
            assetType: 'texture-ao',
            metadata: {},
          })),
        });
        return { job, done: await harness.finalJob(tenant, job.jobId) };
      });
      expect(done.metadata.output).toEqual({ errorMessage: 'output 1 of the job is not a valid image' });
      expect(await harness.db.query('SELECT id FROM assets.assets WHERE job_id = $1', [job.jobId])).toEqual(
        [],
      );
    });
  });
});
