import type { Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

/** pixelate the workflow's image, then upscale what pixelate made (docs/workflows.md). */
const TWO_STEPS = {
  name: 'Pixel art, upscaled',
  description: 'pixelate then upscale',
  inputs: [{ name: 'image', type: 'file', kind: 'image', required: { always: true } }],
  flow: [
    {
      id: 'pixelate',
      type: 'pixelate',
      inputs: [
        { name: 'image', type: 'file', ref: { node: 'workflow', name: 'image' } },
        { name: 'pixelGridSize', type: 'number', value: 32 },
        { name: 'removeNoise', type: 'boolean', value: true },
      ],
    },
    { id: 'upscale', type: 'upscale', inputs: [{ name: 'image', type: 'file', ref: { node: 'pixelate' } }] },
  ],
};

const withFlow = (flow: unknown[]) => ({ ...TWO_STEPS, flow });
/** Step `i` of TWO_STEPS with `change` (a wrong one, in the refusal cases). */
const step = (i: number, change: Record<string, unknown>) => ({ ...TWO_STEPS.flow[i], ...change });

// CRUD of /v1/workflows: the graph checked on every write, 400s naming the field, nothing written, tenants apart.
describe('/v1/workflows', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    [tenant, other] = [await harness.tenant(), await harness.tenant()];
  });
  afterAll(async () => {
    await harness?.close();
  });

  const call = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    harness.request(method, path, { auth: who.auth.projectAdmin, ...(body === undefined ? {} : { body }) });
  const ok = async (method: string, path: string, body?: unknown, who: Tenant = tenant) => {
    const res = await call(method, path, body, who);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const rows = async () =>
    (await harness.db.query<{ id: string; name: string }>('SELECT id, name FROM generation.workflows ORDER BY id')).map((r) => r.id);
  const refused = async (method: string, path: string, body: unknown) => {
    const before = JSON.stringify(await harness.db.query('SELECT * FROM generation.workflows ORDER BY id'));
    const res = await call(method, path, body);
    expect(JSON.stringify(await harness.db.query('SELECT * FROM generation.workflows ORDER BY id'))).toEqual(before);
    return { status: res.status, fields: Object.keys((res.body as { infos?: { fields?: object } }).infos?.fields ?? {}) };
  };

  it('creates, reads, lists, updates and deletes a workflow', async () => {
    const { workflow } = await ok('POST', '/v1/workflows', TWO_STEPS);
    expect(workflow).toMatchObject({
      id: expect.stringMatching(/^workflow_/),
      name: TWO_STEPS.name,
      description: TWO_STEPS.description,
      ownerId: tenant.projectId,
      privacy: 'private',
      status: 'ready',
      inputs: TWO_STEPS.inputs,
      outputAssetKinds: ['image'],
    });
    expect(workflow.flow.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['pixelate', 'pending'],
      ['upscale', 'pending'],
    ]);
    expect((await ok('GET', `/v1/workflows/${workflow.id}`)).workflow).toEqual(workflow);

    const renamed = (await ok('PUT', `/v1/workflows/${workflow.id}`, { name: 'Renamed', tagSet: ['pixel'] })).workflow;
    expect(renamed).toMatchObject({ name: 'Renamed', tagSet: ['pixel'], flow: workflow.flow, description: TWO_STEPS.description });
    const oneStep = (await ok('PUT', `/v1/workflows/${workflow.id}`, { flow: [TWO_STEPS.flow[0]] })).workflow;
    expect(oneStep.flow.map((s: { id: string }) => s.id)).toEqual(['pixelate']);

    const draft = (await ok('POST', '/v1/workflows', { name: 'Empty', description: '' })).workflow;
    expect(draft).toMatchObject({ status: 'draft', flow: [], inputs: [], outputAssetKinds: [] });

    const first = await ok('GET', '/v1/workflows?pageSize=1');
    expect(first.workflows.map((w: { id: string }) => w.id)).toEqual([draft.id]);
    const second = await ok('GET', `/v1/workflows?pageSize=1&paginationToken=${first.nextPaginationToken}`);
    expect(second.workflows.map((w: { id: string }) => w.id)).toEqual([workflow.id]);
    expect(second.nextPaginationToken).toBeUndefined();

    expect(await ok('DELETE', `/v1/workflows/${draft.id}`)).toEqual({});
    expect((await call('GET', `/v1/workflows/${draft.id}`)).status).toBe(404);
    expect(await rows()).not.toContain(draft.id);
  });

  it('refuses a bad workflow with a 400 naming the field, writing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ description: 'no name' }, 'name'],
      [{ name: 'no description' }, 'description'],
      [{ ...TWO_STEPS, privacy: 'secret' }, 'privacy'],
      [{ ...TWO_STEPS, inputs: [...TWO_STEPS.inputs, TWO_STEPS.inputs[0]] }, 'inputs[1].name'],
      // A result mode makes no asset to pass on: not a step.
      [withFlow([{ id: 'c', type: 'caption', inputs: [{ name: 'images', type: 'file_array', ref: { node: 'workflow', name: 'image' } }] }]), 'flow[0].type'],
      [withFlow([step(0, { type: 'no-such-mode' })]), 'flow[0].type'],
      [withFlow([step(0, { id: 'workflow' })]), 'flow[0].id'],
      [withFlow([TWO_STEPS.flow[0], step(1, { id: 'pixelate' })]), 'flow[1].id'],
      // A binding to an input the workflow does not declare, to a missing step, to a missing output.
      [withFlow([step(0, { inputs: [{ name: 'image', type: 'file', ref: { node: 'workflow', name: 'picture' } }, ...TWO_STEPS.flow[0].inputs.slice(1)] })]), 'flow[0].inputs[0].ref.name'],
      [withFlow([TWO_STEPS.flow[0], step(1, { inputs: [{ name: 'image', type: 'file', ref: { node: 'nowhere' } }] })]), 'flow[1].inputs[0].ref.node'],
      [withFlow([TWO_STEPS.flow[0], step(1, { inputs: [{ name: 'image', type: 'file', ref: { node: 'pixelate', name: 'mask' } }] })]), 'flow[1].inputs[0].ref.name'],
      // An input with neither a value nor a ref.
      [withFlow([step(0, { inputs: [{ name: 'image', type: 'file' }, ...TWO_STEPS.flow[0].inputs.slice(1)] })]), 'flow[0].inputs[0]'],
      // Static params the mode refuses: a grid size it does not take, an input it has not, a required one missing.
      [withFlow([step(0, { inputs: [TWO_STEPS.flow[0].inputs[0], { name: 'pixelGridSize', type: 'number', value: 33 }, TWO_STEPS.flow[0].inputs[2]] })]), 'flow[0].inputs[1]'],
      [withFlow([step(0, { inputs: [...TWO_STEPS.flow[0].inputs, { name: 'colour', type: 'string', value: 'red' }] })]), 'flow[0].inputs[3]'],
      [withFlow([step(0, { inputs: TWO_STEPS.flow[0].inputs.slice(0, 2) })]), 'flow[0].inputs'],
      // A cycle: each step takes the other's output.
      [withFlow([step(0, { inputs: [{ name: 'image', type: 'file', ref: { node: 'upscale' } }, ...TWO_STEPS.flow[0].inputs.slice(1)] }), TWO_STEPS.flow[1]]), 'flow[0].inputs'],
      // A custom model that is not there.
      [withFlow([{ id: 'm', type: 'custom-model', modelId: 'model_nothere', inputs: [{ name: 'prompt', type: 'string', value: 'a cat' }] }]), 'flow[0].modelId'],
    ];
    for (const [body, field] of cases) {
      expect({ body, ...(await refused('POST', '/v1/workflows', body)) }).toEqual({ body, status: 400, fields: [field] });
    }
    const { workflow } = await ok('POST', '/v1/workflows', TWO_STEPS);
    expect(await refused('PUT', `/v1/workflows/${workflow.id}`, { flow: [step(0, { type: 'no-such-mode' })] })).toEqual({
      status: 400,
      fields: ['flow[0].type'],
    });
    expect(await refused('PUT', `/v1/workflows/${workflow.id}`, { name: '' })).toEqual({ status: 400, fields: ['name'] });
    expect(await refused('GET', '/v1/workflows?pageSize=0', undefined)).toEqual({ status: 400, fields: ['pageSize'] });
    expect(await refused('GET', '/v1/workflows/not-a-workflow', undefined)).toEqual({ status: 400, fields: ['workflowId'] });
  });

  it('keeps one project’s workflows from another: 404 for its ids, absent from its list', async () => {
    const { workflow } = await ok('POST', '/v1/workflows', TWO_STEPS);
    for (const [method, path, body] of [
      ['GET', `/v1/workflows/${workflow.id}`, undefined],
      ['PUT', `/v1/workflows/${workflow.id}`, { name: 'Stolen' }],
      ['DELETE', `/v1/workflows/${workflow.id}`, undefined],
    ] as const) {
      expect({ method, status: (await call(method, path, body, other)).status }).toEqual({ method, status: 404 });
    }
    expect((await ok('GET', '/v1/workflows', undefined, other)).workflows).toEqual([]);
    // Made public, it is listed for every team under privacy=public, and still theirs only to change.
    await ok('PUT', `/v1/workflows/${workflow.id}`, { privacy: 'public' });
    const listed = await ok('GET', '/v1/workflows?privacy=public&pageSize=200', undefined, other);
    expect(listed.workflows.map((w: { id: string }) => w.id)).toContain(workflow.id);
    expect((await call('PUT', `/v1/workflows/${workflow.id}`, { name: 'Stolen' }, other)).status).toBe(404);
    expect((await ok('GET', `/v1/workflows/${workflow.id}`)).workflow.name).toBe(TWO_STEPS.name);
  });
});
