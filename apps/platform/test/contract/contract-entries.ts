import { MODE_EXAMPLES } from '@genasset/testing';
import type { Fixtures } from './contract-fixtures';

/** One request of the contract test and what it must answer. */
export interface ContractCall {
  /** The request path with its ids and query. The method is the operation's. */
  path: string;
  body?: unknown;
  /** `Authorization` header; the fixtures' project key when absent, none when null. */
  auth?: string | null;
  /** The status the product answers (200 unless said). */
  status?: number;
  /**
   * A deliberate deviation, documented: the upstream definition the answer is
   * checked against instead of the one upstream gives the status.
   */
  definition?: string;
}

export interface ContractEntry {
  /** The upstream operation, as served: `PUT /v1/assets/{assetId}/lock`. */
  operation: string;
  /** Tells apart two entries of one operation. */
  note?: string;
  call: (f: Fixtures) => ContractCall | Promise<ContractCall>;
}

const entry = (operation: string, call: ContractEntry['call'], note?: string): ContractEntry => ({ operation, call, note });

/**
 * Upstream's 200 of the custom route and of training requires the `job` (and
 * `model`) a real run makes; upstream lists no 269 for them, so their dry run
 * answers 200 with upstream's DryRunResponse (docs/generation.md, docs/models.md).
 */
const DRY_RUN_AS_200 = { definition: 'DryRunResponse' } as const;

/** The result modes answer with what their job produced: their entries go first, while the worker is idle. */
const RESULT_MODES = ['caption', 'describe-style', 'embed', 'prompt', 'translate'];
const MODES = [...RESULT_MODES, ...Object.keys(MODE_EXAMPLES).filter((m) => !RESULT_MODES.includes(m))];

/** Changes to the shared examples (MODE_EXAMPLES) for this test. */
const OVERRIDES: Record<string, Record<string, unknown>> = {
  // Upstream's controlnet `modality` enum lists single modalities, while its description (and this
  // product) take up to three with weights, and presets: the echo carries what was sent
  // (docs/generation.md), so the contract sends one.
  controlnet: { modality: 'depth' },
  // The example's 1024×768 reframe costs the worker seconds of CPU in this process, on the event
  // loop (13 s of stall measured on a loaded machine): the contract needs the answer, not the pixels.
  reframe: { targetWidth: 96, targetHeight: 64 },
};

/** Every generate mode, a real run and a dry run (269, upstream's DryRunResponse). */
const GENERATE: ContractEntry[] = MODES.flatMap((mode) => {
  const body = (f: Fixtures) => ({
    ...MODE_EXAMPLES[mode].valid({ asset: f.image, dataUrl: f.dataUrl }),
    ...OVERRIDES[mode],
  });
  return [
    entry(`POST /v1/generate/${mode}`, (f) => ({ path: `/v1/generate/${mode}`, body: body(f) })),
    entry(`POST /v1/generate/${mode}`, (f) => ({ path: `/v1/generate/${mode}?dryRun=true`, body: body(f), status: 269 }), 'dry run'),
  ];
});

/** A one-step workflow: remove the background of the workflow's image. */
const WORKFLOW = {
  name: 'Cut out',
  description: 'remove the background',
  inputs: [{ name: 'image', type: 'file', kind: 'image' }],
  flow: [{ id: 'cut', type: 'remove-background', inputs: [{ name: 'image', type: 'file', ref: { node: 'workflow', name: 'image' } }] }],
};

/**
 * One entry per upstream operation the product serves (more where an
 * operation answers in more than one way). Adding a route to the contract is
 * adding its entry here; the test fails while a served upstream route has none.
 */
export const CONTRACT_ENTRIES: ContractEntry[] = [
  // Assets
  entry('GET /v1/assets', () => ({ path: '/v1/assets?pageSize=100' })),
  entry('GET /v1/assets', () => ({ path: '/v1/assets?privacy=public&pageSize=5', auth: 'public-auth-token' }), 'public access'),
  entry('POST /v1/assets', (f) => ({ path: '/v1/assets', body: { image: f.dataUrl, name: 'new.png' } })),
  entry('POST /v1/assets', () => ({ path: '/v1/assets', body: { canvas: JSON.stringify({ layers: [] }), name: 'c' } }), 'canvas'),
  entry('GET /v1/assets/{assetId}', (f) => ({ path: `/v1/assets/${f.image}?withEmbedding=true` })),
  entry('GET /v1/assets/{assetId}', (f) => ({ path: `/v1/assets/${f.generated}` }), 'generated'),
  entry('PUT /v1/assets/{assetId}', (f) => ({ path: `/v1/assets/${f.image}`, body: { name: 'renamed.png', description: 'd' } })),
  entry('POST /v1/assets/get-bulk', (f) => ({ path: '/v1/assets/get-bulk', body: { assetIds: [f.image, f.canvas, f.generated] } })),
  entry('GET /v1/assets/public', () => ({ path: '/v1/assets/public?pageSize=5', auth: null })),
  entry('GET /v1/assets/public/{assetId}', (f) => ({ path: `/v1/assets/public/${f.image}`, auth: null })),
  entry('PUT /v1/assets/{assetId}/lock', async (f) => ({ path: `/v1/assets/${await f.newCanvas()}/lock`, body: {} })),
  entry('PUT /v1/assets/{assetId}/unlock', async (f) => {
    const canvas = await f.newCanvas();
    const { lockId } = await f.api('PUT', `/v1/assets/${canvas}/lock`, {});
    return { path: `/v1/assets/${canvas}/unlock`, body: { lockId } };
  }),
  entry('GET /v1/assets/{assetId}/snapshots', async (f) => {
    const canvas = await f.newCanvas();
    await f.api('PUT', `/v1/assets/${canvas}`, { canvas: JSON.stringify({ layers: [1] }) });
    return { path: `/v1/assets/${canvas}/snapshots` };
  }),
  entry('PUT /v1/assets/{assetId}/tags', (f) => ({ path: `/v1/assets/${f.image}/tags`, body: { add: ['cat', 'cute'] } })),
  entry('POST /v1/assets/{assetId}/copy', (f) => ({ path: `/v1/assets/${f.image}/copy`, body: {} })),
  entry('POST /v1/assets/download', (f) => ({ path: '/v1/assets/download', body: { assetIds: [f.image] } })),
  entry('GET /v1/assets/download/{jobId}', (f) => ({ path: `/v1/assets/download/${f.downloadJob}` })),
  entry('DELETE /v1/assets', async (f) => ({ path: '/v1/assets', body: { assetIds: [await f.upload()] } })),
  // Uploads
  entry('POST /v1/uploads', () => ({
    path: '/v1/uploads',
    body: { fileName: 'a.mp4', fileSize: 1000, contentType: 'video/mp4', kind: 'video' },
  })),
  entry('GET /v1/uploads/{uploadId}', async (f) => {
    const { upload } = await f.api('POST', '/v1/uploads', { fileName: 'b.png', fileSize: 10, contentType: 'image/png', kind: 'image' });
    return { path: `/v1/uploads/${upload.id}` };
  }),
  entry('POST /v1/uploads/{uploadId}/action', async (f) => {
    const { upload } = await f.api('POST', '/v1/uploads', { fileName: 'c.png', fileSize: 10, contentType: 'image/png', kind: 'image' });
    return { path: `/v1/uploads/${upload.id}/action`, body: { action: 'cancel' } };
  }),
  // Collections
  entry('GET /v1/collections', () => ({ path: '/v1/collections' })),
  entry('POST /v1/collections', () => ({ path: '/v1/collections', body: { name: 'Created' } })),
  entry('GET /v1/collections/{collectionId}', (f) => ({ path: `/v1/collections/${f.collection}` })),
  entry('PUT /v1/collections/{collectionId}', (f) => ({ path: `/v1/collections/${f.collection}`, body: { name: 'Renamed' } })),
  entry('PUT /v1/collections/{collectionId}/assets', (f) => ({
    path: `/v1/collections/${f.collection}/assets`,
    body: { assetIds: [f.image, f.generated] },
  })),
  entry('DELETE /v1/collections/{collectionId}/assets', (f) => ({
    path: `/v1/collections/${f.collection}/assets`,
    body: { assetIds: [f.generated] },
  })),
  entry('PUT /v1/collections/{collectionId}/models', (f) => ({
    path: `/v1/collections/${f.collection}/models`,
    body: { modelIds: [f.trainedModel] },
  })),
  entry('DELETE /v1/collections/{collectionId}/models', (f) => ({
    path: `/v1/collections/${f.collection}/models`,
    body: { modelIds: [f.trainedModel] },
  })),
  entry('DELETE /v1/collections/{collectionId}', async (f) => ({ path: `/v1/collections/${await f.newCollection()}` })),
  // Generation
  ...GENERATE,
  entry('POST /v1/generate/custom/{modelId}', (f) => ({ path: `/v1/generate/custom/${f.trainedModel}`, body: { prompt: 'x' } })),
  entry(
    'POST /v1/generate/custom/{modelId}',
    (f) => ({ path: `/v1/generate/custom/${f.trainedModel}?dryRun=true`, body: { prompt: 'x' }, ...DRY_RUN_AS_200 }),
    'dry run',
  ),
  // Jobs
  entry('GET /v1/jobs', () => ({ path: '/v1/jobs' })),
  entry('GET /v1/jobs/{jobId}', (f) => ({ path: `/v1/jobs/${f.generationJob}` })),
  entry('POST /v1/jobs/{jobId}/action', async (f) => ({
    path: `/v1/jobs/${(await f.trainingModel()).jobId}/action`,
    body: { action: 'cancel' },
  })),
  // Models
  entry('GET /v1/models', () => ({ path: '/v1/models' })),
  entry('POST /v1/models', () => ({ path: '/v1/models', body: { name: 'Created', type: 'flux.1-lora' } })),
  entry('GET /v1/models/{modelId}', (f) => ({ path: `/v1/models/${f.trainedModel}` })),
  entry('PUT /v1/models/{modelId}', (f) => ({ path: `/v1/models/${f.trainedModel}`, body: { name: 'Renamed' } })),
  entry('PUT /v1/models/{modelId}/tags', (f) => ({ path: `/v1/models/${f.trainedModel}/tags`, body: { add: ['a'] } })),
  entry('POST /v1/models/{modelId}/training-images', async (f) => ({
    path: `/v1/models/${await f.newModel()}/training-images`,
    body: { assetId: f.image },
  })),
  entry('DELETE /v1/models/{modelId}/training-images/{trainingImageId}', async (f) => {
    const modelId = await f.newModel();
    await f.api('POST', `/v1/models/${modelId}/training-images`, { assetId: f.image });
    return { path: `/v1/models/${modelId}/training-images/${f.image}` };
  }),
  entry('PUT /v1/models/{modelId}/train', async (f) => ({ path: `/v1/models/${await f.newModel()}/train`, body: {} })),
  entry(
    'PUT /v1/models/{modelId}/train',
    async (f) => ({ path: `/v1/models/${await f.newModel()}/train?dryRun=true`, body: {}, ...DRY_RUN_AS_200 }),
    'dry run',
  ),
  entry('POST /v1/models/{modelId}/train/action', async (f) => ({
    path: `/v1/models/${(await f.trainingModel()).modelId}/train/action`,
    body: { action: 'cancel' },
  })),
  entry('POST /v1/models/{modelId}/download', (f) => ({ path: `/v1/models/${f.trainedModel}/download`, body: {} })),
  entry('DELETE /v1/models/{modelId}', async (f) => ({ path: `/v1/models/${await f.newModel()}` })),
  // Models: the rest of upstream's model routes (docs/models.md)
  entry('POST /v1/models/get-bulk', (f) => ({ path: '/v1/models/get-bulk', body: { modelIds: [f.trainedModel] } })),
  entry('GET /v1/models/public', async (f) => {
    await f.api('PUT', `/v1/models/${f.trainedModel}`, { privacy: 'public' });
    return { path: '/v1/models/public?pageSize=5', auth: null };
  }),
  entry('GET /v1/models/public/{modelId}', async (f) => {
    await f.api('PUT', `/v1/models/${f.trainedModel}`, { privacy: 'public' });
    return { path: `/v1/models/public/${f.trainedModel}`, auth: null };
  }),
  entry('POST /v1/models/{modelId}/copy', (f) => ({ path: `/v1/models/${f.trainedModel}/copy`, body: { copyAsTrained: true } })),
  entry('POST /v1/models/{modelId}/transfer', async (f) => ({
    path: `/v1/models/${await f.newModel()}/transfer?projectId=${f.tenant.projectId}`,
    body: { destinationProjectId: await f.newProject() },
    auth: f.tenant.auth.teamAdmin,
  })),
  entry('GET /v1/models/{modelId}/description', (f) => ({ path: `/v1/models/${f.trainedModel}/description` })),
  entry('PUT /v1/models/{modelId}/description', (f) => ({
    path: `/v1/models/${f.trainedModel}/description`,
    body: { description: `# Lighthouses\n{model:${f.trainedModel}} {asset:${f.image}}` },
  })),
  entry('GET /v1/models/{modelId}/examples', (f) => ({ path: `/v1/models/${f.trainedModel}/examples` })),
  entry('PUT /v1/models/{modelId}/examples', (f) => ({ path: `/v1/models/${f.trainedModel}/examples`, body: { assetIds: [f.generated, f.image] } })),
  entry('GET /v1/models/{modelId}/presets', (f) => ({ path: `/v1/models/${f.trainedModel}/presets` })),
  entry('POST /v1/models/{modelId}/presets', async (f) => {
    const { job } = await f.api('POST', `/v1/generate/custom/${f.trainedModel}`, { prompt: 'a lighthouse' });
    return { path: `/v1/models/${f.trainedModel}/presets`, body: { inferenceId: job.jobId, isDefault: true } };
  }),
  entry('PUT /v1/models/{modelId}/presets/{presetId}', async (f) => {
    const { job } = await f.api('POST', `/v1/generate/custom/${f.trainedModel}`, { prompt: 'a harbour' });
    const { preset } = await f.api('POST', `/v1/models/${f.trainedModel}/presets`, { inferenceId: job.jobId });
    return { path: `/v1/models/${f.trainedModel}/presets/${preset.id}`, body: { isDefault: true } };
  }),
  entry('DELETE /v1/models/{modelId}/presets/{presetId}', async (f) => {
    const { job } = await f.api('POST', `/v1/generate/custom/${f.trainedModel}`, { prompt: 'a pier' });
    const { preset } = await f.api('POST', `/v1/models/${f.trainedModel}/presets`, { inferenceId: job.jobId });
    return { path: `/v1/models/${f.trainedModel}/presets/${preset.id}` };
  }),
  entry('GET /v1/models/{modelId}/scores/prompt', (f) => ({ path: `/v1/models/${f.trainedModel}/scores/prompt?prompt=a%20lighthouse` })),
  entry('GET /v1/models/{modelId}/scores/training-dataset', (f) => ({ path: `/v1/models/${f.trainedModel}/scores/training-dataset` })),
  entry('PUT /v1/models/{modelId}/training-images/pairs', async (f) => {
    const { model } = await f.api('POST', '/v1/models', { name: 'Paired', type: 'flux.1-kontext-lora' });
    const [source, target] = [await f.upload(), await f.upload()];
    await f.api('POST', `/v1/models/${model.id}/training-images`, { assetIds: [source, target] });
    return { path: `/v1/models/${model.id}/training-images/pairs`, body: [{ sourceId: source, targetId: target, instruction: 'make it night' }] };
  }),
  entry('PUT /v1/models/{modelId}/training-images/{trainingImageId}', async (f) => {
    const modelId = await f.newModel();
    const { trainingImages } = await f.api('GET', `/v1/models/${modelId}/training-images`);
    return { path: `/v1/models/${modelId}/training-images/${trainingImages[0].id}`, body: { assetId: await f.upload() } };
  }),
  entry('DELETE /v1/models/{modelId}/images', async (f) => {
    const modelId = await f.newModel();
    const { trainingImages } = await f.api('GET', `/v1/models/${modelId}/training-images`);
    return { path: `/v1/models/${modelId}/images?ids=${trainingImages[0].id}` };
  }),
  // Workflows (docs/workflows.md): one step whose type upstream's enum has (remove-background).
  entry('GET /v1/workflows', async (f) => {
    await f.api('POST', '/v1/workflows', WORKFLOW);
    return { path: '/v1/workflows?pageSize=5' };
  }),
  entry('POST /v1/workflows', () => ({ path: '/v1/workflows', body: WORKFLOW })),
  entry('GET /v1/workflows/{workflowId}', async (f) => {
    const { workflow } = await f.api('POST', '/v1/workflows', WORKFLOW);
    return { path: `/v1/workflows/${workflow.id}` };
  }),
  entry('PUT /v1/workflows/{workflowId}', async (f) => {
    const { workflow } = await f.api('POST', '/v1/workflows', WORKFLOW);
    return { path: `/v1/workflows/${workflow.id}`, body: { name: 'Renamed', description: 'd' } };
  }),
  entry('DELETE /v1/workflows/{workflowId}', async (f) => {
    const { workflow } = await f.api('POST', '/v1/workflows', WORKFLOW);
    return { path: `/v1/workflows/${workflow.id}` };
  }),
  entry('PUT /v1/workflows/{workflowId}/run', async (f) => {
    const { workflow } = await f.api('POST', '/v1/workflows', WORKFLOW);
    return { path: `/v1/workflows/${workflow.id}/run`, body: { inputs: { image: f.image } } };
  }),
  // Upstream lists only a 200 for the run; its dry run answers 269 like every generation's, with upstream's DryRunResponse.
  entry(
    'PUT /v1/workflows/{workflowId}/run',
    async (f) => {
      const { workflow } = await f.api('POST', '/v1/workflows', WORKFLOW);
      return { path: `/v1/workflows/${workflow.id}/run?dryRun=true`, body: { inputs: { image: f.image } }, status: 269, definition: 'DryRunResponse' };
    },
    'dry run',
  ),
  // Account and discovery (tags, usages, prices, recommendations)
  // Search (docs/search.md): hybrid, an uploaded image (it has an embedding) as the reference.
  entry('POST /v1/search/assets', (f) => ({ path: '/v1/search/assets', body: { query: 'input', image: f.image, hitsPerPage: 5, page: 1 } })),
  entry('POST /v1/search/models', () => ({ path: '/v1/search/models', body: { query: 'renamed', filter: 'privacy IN [private, public]', limit: 5, offset: 0 } })),
  entry('GET /v1/tags', () => ({ path: '/v1/tags?pageSize=100' })),
  entry('GET /v1/usages', () => ({ path: '/v1/usages?timeRange=7d' })),
  entry('GET /v1/oscu/prices', () => ({ path: '/v1/oscu/prices', auth: null })),
  entry('GET /v1/recommendations/models', () => ({ path: '/v1/recommendations/models?limit=30' })),
  // Last: the outputs of every engine, once each generation above has made its assets.
  entry(
    'GET /v1/assets',
    async (f) => {
      await f.settled();
      return { path: '/v1/assets?pageSize=100&sortBy=createdAt&sortDirection=desc' };
    },
    'every job done',
  ),
];
