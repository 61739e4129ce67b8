import {
  JobCanceled,
  JobCreated,
  JobFailed,
  JobStarted,
  JobSucceeded,
  type EventDefinition,
  type JobLifecycleData,
} from '@genasset/contracts';
import type { Tenant } from '@genasset/testing';
import { deliveryRows } from './support/delivery-rows';
import { startIntakeFixture, type IntakeFixture } from './support/intake-fixture';
import { createEndpoint, projectOwner } from './support/webhook-harness';

jest.setTimeout(180_000);

interface ShapeCase {
  fact: EventDefinition<string, JobLifecycleData>;
  job: Partial<JobLifecycleData>;
  type: string;
  data: (job: JobLifecycleData) => object;
}

const zip = 'https://cdn.example.com/a.zip?sig=1';
const weights = 'https://cdn.example.com/m.safetensors';
const model = { id: 'model_t', name: 'LoRA', status: 'training' };

// Each family's body as a receiver gets it, through the broker and intake (the unit tests cover the full table).
const CASES: ShapeCase[] = [
  {
    fact: JobCreated,
    job: { jobType: 'upscale' },
    type: 'generation.created',
    data: (j) => ({ jobId: j.jobId, jobType: 'upscale' }),
  },
  {
    fact: JobFailed,
    job: { modelId: 'model_9', failureReason: 'boom' },
    type: 'generation.failed',
    data: (j) => ({ jobId: j.jobId, jobType: 'inference', modelId: 'model_9' }),
  },
  {
    fact: JobCreated,
    job: { kind: 'asset-download', jobType: 'assets-download' },
    type: 'asset.download.created',
    data: (j) => ({ jobId: j.jobId }),
  },
  {
    fact: JobSucceeded,
    job: { kind: 'asset-download', jobType: 'assets-download', output: { downloadUrl: zip } },
    type: 'asset.download.completed',
    data: (j) => ({ jobId: j.jobId, downloadUrl: zip }),
  },
  {
    fact: JobFailed,
    job: { kind: 'model-download', jobType: 'model-download' },
    type: 'model.download.failed',
    data: (j) => ({ jobId: j.jobId }),
  },
  {
    fact: JobSucceeded,
    job: { kind: 'model-download', jobType: 'model-download', output: { downloadUrl: weights } },
    type: 'model.download.completed',
    data: (j) => ({ jobId: j.jobId, downloadUrl: weights }),
  },
  {
    fact: JobStarted,
    job: { kind: 'model-training', jobType: 'model-training', modelId: 'model_t', output: { model } },
    type: 'model.training.started',
    data: () => ({ model }),
  },
  {
    fact: JobCanceled,
    job: { kind: 'model-training', jobType: 'model-training', modelId: 'model_t' },
    type: 'model.training.cancelled',
    data: () => ({ model: { id: 'model_t' } }),
  },
];

describe('event bodies per family', () => {
  let fixture: IntakeFixture;
  let tenant: Tenant;
  const { deliveriesFor } = deliveryRows(() => fixture.harness);

  beforeAll(async () => {
    fixture = await startIntakeFixture();
    tenant = await fixture.harness.tenant();
    await createEndpoint(fixture.harness, projectOwner(tenant), {
      url: fixture.hook('shapes'),
      enabledEvents: ['*'],
    });
  });
  afterAll(() => fixture?.close());

  it.each(CASES.map((c) => [c.type, c] as const))('%s', async (_type, c) => {
    const fact = await fixture.facts.job(c.fact, fixture.job(tenant, c.job));
    const [row] = await deliveriesFor(fact.id);
    expect(row.type).toBe(c.type);
    expect(row.payload).toEqual({ id: row.id, type: c.type, data: c.data(fact.data) });
  });
});
