import { JobStarted, JobSucceeded, type EventEnvelope, type JobLifecycleData } from '@genasset/contracts';
import type { EventContext } from '@genasset/messaging';
import type { ObjectStore } from '@genasset/storage';
import type { GenerationPrisma } from '../generation.prisma';
import { TrainingFactsController } from './training-facts.controller';
import { TrainingRepository } from './training.repository';

type Row = Record<string, unknown> & { id: string };

/** A one-model stand-in for the consumer's transaction: enough of `tx.model` for the controller. */
function fakeTx(row: Row) {
  const matches = (where: Record<string, unknown>) =>
    Object.entries(where).every(([k, v]) =>
      v && typeof v === 'object' && 'in' in v ? (v.in as unknown[]).includes(row[k]) : row[k] === v,
    );
  return {
    row,
    model: {
      findUnique: async () => ({ ...row }),
      updateMany: async ({
        where,
        data,
      }: {
        where: Record<string, unknown>;
        data: Record<string, unknown>;
      }) => {
        if (!matches(where)) return { count: 0 };
        Object.assign(row, data);
        return { count: 1 };
      },
    },
  };
}

const fact = (type: string, data: Partial<JobLifecycleData>) =>
  ({
    type,
    data: {
      jobId: 'job_1',
      jobType: 'model-training',
      kind: 'model-training',
      teamId: 'team_1',
      projectId: 'proj_1',
      modelId: 'model_1',
      ...data,
    },
  }) as unknown as EventEnvelope<JobLifecycleData>;

describe('TrainingFactsController', () => {
  afterEach(() => jest.useRealTimers());

  it('reports trainingStats.trainDuration in seconds, as upstream defines it (not milliseconds)', async () => {
    const tx = fakeTx({
      id: 'model_1',
      status: 'training',
      trainingJobId: 'job_1',
      trainingAttempt: 'train_1',
      trainingProgress: null,
      artifacts: null,
    });
    const ctx = { tx } as unknown as EventContext<never>;
    // The facts path reads and writes on the consumer's transaction only (the fake above).
    const controller = new TrainingFactsController(
      { delete: async () => undefined } as unknown as ObjectStore,
      new TrainingRepository({} as GenerationPrisma),
    );
    jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00.000Z') });
    await controller.fact(fact(JobStarted.type, { status: 'in-progress', progress: 0 }), ctx);
    jest.setSystemTime(Date.parse('2026-01-01T00:01:30.500Z'));
    await controller.fact(
      fact(JobSucceeded.type, {
        status: 'success',
        progress: 1,
        output: { model: { trainer: 'builtin-colour', files: [{ name: 'model.json' }] } },
      } as Partial<JobLifecycleData>),
      ctx,
    );
    expect(tx.row.status).toBe('trained');
    expect(tx.row.trainingStats).toEqual({
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:01:30.500Z',
      trainDuration: 90.5,
    });
  });
});
