import type { Tenant } from '@genasset/testing';
import { FakeWorker } from './support/fake-worker';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(120_000);

// Caption, describe-style, embed, prompt and translate answer with their result,
// as upstream does: the request waits (GENERATION_RESULT_WAIT) for its job, which
// an executor completes through the broker, and reads the result from the job's output.
describe('generate modes answering with a result', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let worker: FakeWorker;

  beforeAll(async () => {
    harness = await startGenerationHarness({ GENERATION_RESULT_WAIT: '20s' });
    tenant = await harness.tenant();
    worker = await new FakeWorker(tenant.projectId, (input) => {
      switch (input.generationMode) {
        case 'caption':
          return { captions: (input.images as string[]).map((_, i) => `caption ${i}`) };
        case 'translate':
          return { translation: 'a cat on a roof', detectedLanguage: 'fr' };
        default:
          return {};
      }
    }).start();
  });
  afterAll(async () => {
    await worker?.stop();
    await harness?.close();
  });

  it('caption answers with the captions once the job succeeded', async () => {
    const res = await harness.request('POST', '/v1/generate/caption', {
      auth: tenant.auth.projectMember,
      body: { images: [await harness.uploadAsset(tenant), await harness.uploadAsset(tenant)] },
    });
    expect(res.status).toBe(200);
    expect(res.body.job.status).toBe('success');
    expect(res.body.captions).toEqual(['caption 0', 'caption 1']);
  });

  it('translate answers with the translation', async () => {
    const res = await harness.request('POST', '/v1/generate/translate', {
      auth: tenant.auth.projectMember,
      body: { prompt: 'un chat sur un toit' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      translation: 'a cat on a roof',
      detectedLanguage: 'fr',
      job: { status: 'success' },
    });
  });

  it('modes without a result do not wait', async () => {
    const res = await harness.request('POST', '/v1/generate/txt2img', {
      auth: tenant.auth.projectMember,
      body: { modelId: 'flux.1-dev', prompt: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body.job.status).toBe('queued');
  });
});
