import sharp from 'sharp';
import { waitFor, type ServiceHarness, type Tenant } from '@genasset/testing';

/**
 * What the contract's calls act on, made through the public API before the
 * first call: an image asset made public, a canvas, an asset a generation job
 * made (so lists show generated metadata), a collection, a trained model, a
 * finished batch download. Calls that change or delete something make their
 * own object with the helpers, so the entries do not depend on each other.
 */
export interface Fixtures {
  tenant: Tenant;
  /** The `Authorization` header of every call (a project member's key). */
  auth: string;
  dataUrl: string;
  /** An uploaded image, made public. */
  image: string;
  canvas: string;
  /** An asset a txt2img job made, and that job. */
  generated: string;
  generationJob: string;
  collection: string;
  /** A model trained by the built-in trainer (download needs trained files). */
  trainedModel: string;
  /** A finished batch download job. */
  downloadJob: string;
  /** A 200 answer's body, or the test fails saying which call did not answer 200. */
  api(method: string, path: string, body?: unknown): Promise<any>;
  upload(): Promise<string>;
  newCanvas(): Promise<string>;
  newCollection(): Promise<string>;
  /** A model with one training image. */
  newModel(): Promise<string>;
  /** A model whose training runs long enough to be cancelled (50 epochs at INFERENCE_TRAINER_STEP_DELAY). */
  trainingModel(): Promise<{ modelId: string; jobId: string }>;
  /** A new project of the fixtures' team (model transfers go there). */
  newProject(): Promise<string>;
  finalJob(jobId: string): Promise<Record<string, any>>;
  /** Resolves once no job of the project is still to finish (every generation has made its assets). */
  settled(): Promise<void>;
}

/** A small real PNG as a data URL. */
export async function pngDataUrl(width = 64, height = 64): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

export async function makeFixtures(harness: ServiceHarness): Promise<Fixtures> {
  const tenant = await harness.tenant();
  const auth = tenant.auth.projectMember;
  const dataUrl = await pngDataUrl();
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await harness.request(method, path, { auth, ...(body === undefined ? {} : { body }) });
    if (res.status !== 200) throw new Error(`fixture ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const finalJob = (jobId: string) =>
    waitFor(
      async () => {
        const { job } = await api('GET', `/v1/jobs/${jobId}`);
        return ['success', 'failure', 'canceled'].includes(job.status) ? job : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `job ${jobId} to finish` },
    );
  const upload = async () => (await api('POST', '/v1/assets', { image: dataUrl, name: 'input.png' })).asset.id as string;
  const newModel = async () => {
    const { model } = await api('POST', '/v1/models', { name: 'Contract' });
    await api('POST', `/v1/models/${model.id}/training-images`, { assetId: await upload() });
    return model.id as string;
  };
  const train = async (modelId: string, nbEpochs: number) =>
    (await api('PUT', `/v1/models/${modelId}/train`, { parameters: { nbEpochs } })).job.jobId as string;

  const image = await upload();
  await api('PUT', `/v1/assets/${image}`, { privacy: 'public' });
  const canvas = (await api('POST', '/v1/assets', { canvas: JSON.stringify({ layers: [] }), name: 'canvas' })).asset.id;
  const trainedModel = await newModel();
  const trained = await finalJob(await train(trainedModel, 1));
  const generation = await api('POST', '/v1/generate/txt2img', { modelId: 'flux.1-dev', prompt: 'a lighthouse', seed: '42' });
  const generationJob: string = generation.job.jobId;
  const generatedJob = await finalJob(generationJob);
  const { jobId: downloadJob } = await api('POST', '/v1/assets/download', { assetIds: [image, canvas] });
  const download = await finalJob(downloadJob);
  for (const [what, job] of [['training', trained], ['txt2img', generatedJob], ['download', download]] as const)
    if (job.status !== 'success') throw new Error(`fixture ${what} job ${job.jobId}: ${job.status} ${JSON.stringify(job.metadata)}`);

  return {
    tenant,
    auth,
    dataUrl,
    image,
    canvas,
    generated: generatedJob.metadata.assetIds[0],
    generationJob,
    collection: (await api('POST', '/v1/collections', { name: 'Contract' })).collection.id,
    trainedModel,
    downloadJob,
    api,
    upload,
    newCanvas: async () => (await api('POST', '/v1/assets', { canvas: JSON.stringify({ layers: [] }) })).asset.id,
    newCollection: async () => (await api('POST', '/v1/collections', { name: 'Another' })).collection.id,
    newModel,
    async trainingModel() {
      const modelId = await newModel();
      return { modelId, jobId: await train(modelId, 50) };
    },
    finalJob,
    async newProject() {
      const res = await harness.request('POST', `/admin/v1/teams/${tenant.teamId}/projects`, {
        auth: `Bearer ${harness.adminToken}`,
        body: { name: 'destination' },
      });
      if (res.status !== 200 && res.status !== 201) throw new Error(`fixture project: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.project.id as string;
    },
    async settled() {
      const FINAL = ['success', 'failure', 'canceled'];
      await waitFor(
        async () => {
          const { jobs } = await api('GET', '/v1/jobs?pageSize=200');
          return (jobs as { status: string }[]).every((j) => FINAL.includes(j.status)) || undefined;
        },
        { timeoutMs: 90_000, intervalMs: 250, what: 'every job of the project to finish' },
      );
    },
  };
}
