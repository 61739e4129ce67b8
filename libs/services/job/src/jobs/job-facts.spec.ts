import { lifecycleData } from './job-facts';
import type { JobRecord } from './job.repository';

const record = (over: Partial<JobRecord>): JobRecord =>
  ({
    id: 'job_1',
    jobType: 'model-training',
    kind: 'model-training',
    status: 'in-progress',
    progress: 0.5,
    teamId: 'team_1',
    projectId: 'proj_1',
    authorId: null,
    modelId: 'model_1',
    input: { model: { id: 'model_1', name: 'Reds', status: 'training' } },
    output: {},
    assetIds: [],
    failureReason: null,
    creativeUnitsCost: 0,
    idempotencyKey: null,
    hideResults: false,
    createdAt: new Date(),
    updatedAt: new Date(),
    history: [],
    ...over,
  }) as JobRecord;

describe('lifecycleData of model-training jobs: the model summary in output.model', () => {
  it.each([
    ['in-progress', 'training'],
    ['success', 'trained'],
    ['failure', 'failed'],
    ['canceled', 'training-canceled'],
  ])('a %s job carries the summary with status %s', (status, modelStatus) => {
    expect(lifecycleData(record({ status })).output?.model).toEqual({
      id: 'model_1',
      name: 'Reds',
      status: modelStatus,
    });
  });

  it('merges what the trainer reported on success', () => {
    const data = lifecycleData(record({ status: 'success' }), {
      output: { model: { trainer: 'builtin-colour' } },
    });
    expect(data.output?.model).toEqual({
      id: 'model_1',
      name: 'Reds',
      trainer: 'builtin-colour',
      status: 'trained',
    });
  });

  it('leaves other kinds, and trainings created without a summary, as they were', () => {
    expect(lifecycleData(record({ kind: 'generation', jobType: 'inference' })).output).toBeUndefined();
    expect(lifecycleData(record({ input: {} })).output).toBeUndefined();
  });
});
