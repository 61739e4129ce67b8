import type { TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import type { ModelAccess } from './model-access';
import { conditioningModelRefs, ModelRuns } from './model-runs';

const tenant: TenantRef = { teamId: 'team_b', projectId: 'project_b' };

describe('conditioningModelRefs', () => {
  it('lists the concepts’ model ids and baseModelId, and modelId when the mode does not run it', () => {
    const body = {
      modelId: 'model_main',
      baseModelId: 'flux.1-dev',
      concepts: [{ modelId: 'model_a', scale: 1 }, { scale: 1 }, { modelId: 'model_b', scale: 0.5 }],
    };
    expect(conditioningModelRefs(body, true)).toEqual([
      { field: 'baseModelId', id: 'flux.1-dev' },
      { field: 'concepts.0.modelId', id: 'model_a' },
      { field: 'concepts.2.modelId', id: 'model_b' },
    ]);
    expect(conditioningModelRefs({ modelId: 'model_x' }, false)).toEqual([
      { field: 'modelId', id: 'model_x' },
    ]);
  });
});

describe('ModelRuns.conditioning', () => {
  const runs = (readable: string[]) => {
    const asked: string[][] = [];
    const access = {
      readableIds: (_t: TenantRef, ids: readonly string[]) => {
        asked.push([...ids]);
        return Promise.resolve(new Set(ids.filter((id) => readable.includes(id))));
      },
    } as unknown as ModelAccess;
    return { runs: new ModelRuns(access), asked };
  };

  it('answers 404 naming the first field whose model the caller may not read', async () => {
    const { runs: r, asked } = runs(['model_own']);
    const error = await r
      .conditioning(tenant, [
        { field: 'concepts.0.modelId', id: 'model_own' },
        { field: 'concepts.1.modelId', id: 'model_foreign' },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(404);
    expect((error as ApiError).infos).toEqual({ id: 'model_foreign', field: 'concepts.1.modelId' });
    expect(asked).toEqual([['model_own', 'model_foreign']]);
  });

  it('passes base-model names without a lookup', async () => {
    const { runs: r, asked } = runs([]);
    await expect(
      r.conditioning(tenant, [{ field: 'baseModelId', id: 'flux.1-dev' }]),
    ).resolves.toBeUndefined();
    expect(asked).toEqual([]);
  });
});

describe('ModelRuns.forMode: a model on a backend', () => {
  const id = 'model_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A';
  const version = `acme/styles:${'c'.repeat(64)}`;
  const runsOf = (row: Record<string, unknown>) =>
    new ModelRuns({ readable: () => Promise.resolve({ id, type: 'flux.1-lora', status: 'new', artifacts: null, backend: null, ...row }) } as unknown as ModelAccess);

  it('sends the backend it names, with the version that backend’s training made once trained', async () => {
    expect(await runsOf({ backend: 'r8' }).forMode(tenant, id, 'txt2img')).toEqual({ modelId: id, backend: 'r8' });
    const trained = { backend: 'r8', status: 'trained', artifacts: { trainer: 'replicate', backend: 'r8', version, files: [] } };
    expect(await runsOf(trained).forMode(tenant, id, 'txt2img')).toEqual({ modelId: id, backend: 'r8', version });
    // Trained on another backend than the one it now names: that version is not this backend's to run.
    expect(await runsOf({ ...trained, backend: 'other' }).forMode(tenant, id, 'txt2img')).toEqual({ modelId: id, backend: 'other' });
    expect(await runsOf({}).forMode(tenant, id, 'txt2img')).toBeUndefined();
  });
});
