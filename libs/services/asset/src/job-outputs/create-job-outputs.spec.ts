import { Readable } from 'node:stream';
import sharp from 'sharp';
import { JobFailedReported, JobSucceededReported, type JobOutputsProducedData } from '@genasset/contracts';
import type { ObjectStore } from '@genasset/storage';
import type { AssetWriter } from '../core/asset-writer';
import type { Prisma } from '../generated/prisma/client';
import type { StoredObjects } from '../objects/stored-objects';
import { CreateJobOutputs } from './create-job-outputs';
import type { JobOutputsRepository } from './job-outputs.repository';

const JOB = 'job_01JD0000000000000000000001';
const TEAM = 'team_1';
const PROJECT = 'proj_1';

/**
 * Makes the assets of a job of `outputCount` outputs, read from a store whose read of output i
 * takes `delayMs(i)`; counts the reads in flight at once. The outputs in `bad` are not images.
 */
async function run(outputCount: number, delayMs: (index: number) => number, bad = new Set<number>()) {
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#c03' } }).png().toBuffer();
  let inFlight = 0;
  let mostInFlight = 0;
  const store = {
    get: async (key: string) => {
      const index = Number(/(\d+)\.png$/.exec(key)![1]);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs(index)));
      inFlight--;
      return { body: Readable.from([bad.has(index) ? Buffer.from('not an image') : png]) };
    },
    put: async () => ({}),
  } as unknown as ObjectStore;
  const events: { type: unknown; data: Record<string, unknown> }[] = [];
  const created: number[] = [];
  const outputs = new CreateJobOutputs(
    { create: async (_tx: unknown, input: { id: string; outputIndex: number }) => (created.push(input.outputIndex), { id: input.id }) } as unknown as AssetWriter,
    { release: async () => undefined } as unknown as StoredObjects,
    {
      write: async (_tx: unknown, written: typeof events) => void events.push(...written),
      event: (type: unknown, data: Record<string, unknown>) => ({ type, data }),
    } as never,
    store,
    { madeOrParents: async () => [] } as unknown as JobOutputsRepository,
  );
  const tx = { $queryRaw: async () => [{ team_id: TEAM }] } as unknown as Prisma.TransactionClient;
  const data: JobOutputsProducedData = {
    jobId: JOB,
    jobType: 'inference',
    tenant: { teamId: TEAM, projectId: PROJECT },
    outputs: Array.from({ length: outputCount }, (_, i) => ({
      key: `jobs/${JOB}/${i}.png`,
      mimeType: 'image/png',
      assetType: 'inference-txt2img',
    })),
  } as JobOutputsProducedData;
  const assetIds = await outputs.execute(tx, data);
  return { assetIds, events, created, mostInFlight };
}

describe('CreateJobOutputs: a job with several outputs', () => {
  it('reads and describes four outputs at once, and makes their assets in order', async () => {
    const { assetIds, events, created, mostInFlight } = await run(6, () => 30);
    expect(mostInFlight).toBe(4);
    expect(created).toEqual([0, 1, 2, 3, 4, 5]);
    expect(assetIds).toHaveLength(6);
    expect(events).toEqual([{ type: JobSucceededReported, data: expect.objectContaining({ jobId: JOB, output: { assetIds } }) }]);
  });

  it('refuses the job naming the first unusable output, whichever is read first', async () => {
    // Outputs 1 and 3 are not images; output 3 is read long before output 1.
    const { assetIds, events, created } = await run(4, (index) => (index === 1 ? 60 : 5), new Set([1, 3]));
    expect(assetIds).toBeUndefined();
    expect(created).toEqual([]);
    expect(events).toEqual([
      { type: JobFailedReported, data: { jobId: JOB, reason: 'output 1 of the job is not a valid image' } },
    ]);
  });
});
